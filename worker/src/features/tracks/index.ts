import { newRouter } from "../../openapi/router.ts";
import { trackCatalogueRoutes } from "./routes.ts";

/** /api/v1/tracks: the catalogue's tracks (upload and streaming are added by the pipeline). */
export const trackRoutes = newRouter().route("/", trackCatalogueRoutes);
