/** The initiative page's tabs, in the order they are shown. */
export const initiativeTabs = ["policies", "covered", "description"] as const;
export type InitiativeTab = (typeof initiativeTabs)[number];
