import { newRouter } from "../../openapi/router.ts";

/** /api/v1/history: the signed-in user's listening history. */
export const historyRoutes = newRouter();
