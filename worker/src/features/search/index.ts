import { newRouter } from "../../openapi/router.ts";
import { searchContext } from "./context.ts";
import { searchRoute } from "./routes.ts";
import { searchInput } from "./schema.ts";
import { search } from "./service.ts";

/** /api/v1/search */
export const searchRoutes = newRouter().openapi(searchRoute, async (c) => {
  const results = await search(searchContext(c), searchInput(c.req.valid("query")));
  return c.json(results, 200);
});
