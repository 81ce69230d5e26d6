import { newRouter } from "../../openapi/router.ts";
import { trackCatalogueRoutes } from "./catalogue/routes.ts";
import { conversionRoutes } from "./conversion/routes.ts";
import { trackEventRoutes } from "./events/routes.ts";
import { formUploadRoutes } from "./form-upload/routes.ts";
import { trackLikeRoutes } from "./likes/routes.ts";
import { relatedRoutes } from "./related/routes.ts";
import { streamingRoutes } from "./streaming/routes.ts";
import { trendingRoutes } from "./trending/routes.ts";
import { waveformRoutes } from "./waveform/routes.ts";

/**
 * /api/v1/tracks: streaming (under /stream), the form upload, a conversion's retry and live
 * status, listeners' likes, and the catalogue's tracks. (The direct upload is mounted at /api/v1/uploads.)
 */
export const trackRoutes = newRouter()
  .route("/stream", streamingRoutes)
  .route("/", waveformRoutes)
  .route("/", formUploadRoutes)
  .route("/", conversionRoutes)
  .route("/", trackEventRoutes)
  // Before the catalogue: /me/liked is not a track id.
  .route("/", trackLikeRoutes)
  // Before the catalogue too: /trending is not a track id.
  .route("/", trendingRoutes)
  .route("/", relatedRoutes)
  .route("/", trackCatalogueRoutes);
