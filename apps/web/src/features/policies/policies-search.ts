/** The policies page's address: which view, which catalogue filters, which page. */
export const policyViews = ["catalogue", "deployed"] as const;
export const catalogueProviders = ["AWS", "Azure"] as const;
export const catalogueCategories = [
  "network-access",
  "data-protection",
  "encryption",
  "identity",
  "other",
] as const;
export const catalogueStates = ["not-installed", "alert", "prevent"] as const;

export interface PoliciesSearch {
  view?: (typeof policyViews)[number];
  search?: string;
  provider?: (typeof catalogueProviders)[number];
  category?: (typeof catalogueCategories)[number];
  state?: (typeof catalogueStates)[number];
  framework?: string;
  resourceType?: string;
  page?: number;
}

/** The policy page's tabs, in the order they are shown. */
export const policyTabs = ["overview", "events", "drifts", "waivers"] as const;
export type PolicyTab = (typeof policyTabs)[number];

/** Where the create page was opened from: a recommendation, an initiative, suggested policies or a key. */
export interface CreatePolicyContext {
  recommendationId?: string;
  recommendationTitle?: string;
  initiativeSlug?: string;
  initiativeTitle?: string;
  provider?: (typeof catalogueProviders)[number];
  defaultSelectedPolicies?: string[];
  policyKey?: string;
}
