import { newRouter } from "../../openapi/router.ts";

/** /api/v1/playlists */
export const playlistRoutes = newRouter();
