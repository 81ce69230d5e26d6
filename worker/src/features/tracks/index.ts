import { newRouter } from "../../openapi/router.ts";
import { trackCatalogueRoutes } from "./catalogue/routes.ts";
import { trackEventRoutes } from "./events/routes.ts";
import { streamingRoutes } from "./streaming/routes.ts";
import { uploadRoutes } from "./upload/routes.ts";
import { waveformRoutes } from "./waveform/routes.ts";

/** /api/v1/tracks: streaming (under /stream), the upload, and the catalogue's tracks. */
export const trackRoutes = newRouter()
  .route("/stream", streamingRoutes)
  .route("/", waveformRoutes)
  .route("/", uploadRoutes)
  .route("/", trackEventRoutes)
  .route("/", trackCatalogueRoutes);
