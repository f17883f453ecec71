/** What other modules may use of exports: the export service they define and start exports with, and its formats. */
export type { ExportFormatName, ExportRequest, ExportService } from "./export-service";
