import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { AccountService } from "./gen/palisade/account/v1/account_pb";
import { AuditService } from "./gen/palisade/audit/v1/audit_pb";
import { ConnectorService } from "./gen/palisade/connector/v1/connector_service_pb";
import { DeploymentManagerService } from "./gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyEventStoreService } from "./gen/palisade/event/v1/event_service_pb";
import { InitiativeService } from "./gen/palisade/initiative/v1/initiative_pb";
import { NotificationService } from "./gen/palisade/notification/v1/notification_pb";
import { PolicyService } from "./gen/palisade/policy/v1/policy_pb";
import { PolicyDefinitionService } from "./gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { RecommendationService } from "./gen/palisade/recommendation/v1/recommendation_pb";
import { SsoService } from "./gen/palisade/sso/v1/sso_pb";
import { TeamService } from "./gen/palisade/team/v1/team_pb";
import { TenantService } from "./gen/palisade/tenant/v1/tenant_pb";
import { WaiverAnalyticsService } from "./gen/palisade/waiver/v1/waiver_analytics_pb";
import { WaiverService } from "./gen/palisade/waiver/v1/waiver_service_pb";

// Every service of the contract: the server registers them all and tests iterate them.
export const allServices: readonly GenService<GenServiceMethods>[] = [
  TenantService,
  WaiverService,
  DeploymentManagerService,
  PolicyDefinitionService,
  PolicyService,
  PolicyEventStoreService,
  ConnectorService,
  TeamService,
  InitiativeService,
  RecommendationService,
  AccountService,
  NotificationService,
  WaiverAnalyticsService,
  SsoService,
  AuditService,
];
