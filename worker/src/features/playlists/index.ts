import { newRouter } from "../../openapi/router.ts";
import { likeRoutes } from "./routes/likes.ts";
import { readRoutes } from "./routes/read.ts";
import { trackRoutes } from "./routes/tracks.ts";
import { writeRoutes } from "./routes/write.ts";

/** /api/v1/playlists */
export const playlistRoutes = newRouter()
  .route("/", readRoutes)
  .route("/", writeRoutes)
  .route("/", trackRoutes)
  .route("/", likeRoutes);
