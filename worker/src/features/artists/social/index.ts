import { newRouter } from "../../../openapi/router.ts";

/** Following and liking artists (users); mounted under /api/v1/artists. */
export const artistSocialRoutes = newRouter();
