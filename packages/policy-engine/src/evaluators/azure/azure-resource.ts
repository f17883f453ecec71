/** A resource as Azure Policy sees it on create or update. */
export interface AzureResource {
  id: string;
  type: string;
  name: string;
  location?: string;
  kind?: string;
  tags?: Record<string, string>;
  sku?: Record<string, unknown>;
  properties?: Record<string, unknown>;
}
