import { newRouter } from "../../openapi/router.ts";

/** /api/v1/artists: profiles, follows, likes. */
export const artistRoutes = newRouter();
