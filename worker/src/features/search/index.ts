import { newRouter } from "../../openapi/router.ts";

/** /api/v1/search */
export const searchRoutes = newRouter();
