import { newRouter } from "../../openapi/router.ts";

/** /api/v1/albums */
export const albumRoutes = newRouter();
