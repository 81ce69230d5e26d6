import { newRouter } from "../../../openapi/router.ts";

/** An artist's tracks and albums; mounted under /api/v1/artists. */
export const artistCatalogueRoutes = newRouter();
