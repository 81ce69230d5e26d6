import { newRouter } from "../../openapi/router.ts";
import { historyContext } from "./context.ts";
import {
  clearHistoryRoute,
  listHistoryRoute,
  recordListenRoute,
  removeTrackRoute,
} from "./routes.ts";
import { clearHistory, listHistory, recordListen, removeTrack } from "./service.ts";

/** /api/v1/history: the signed-in user's listening history. */
export const historyRoutes = newRouter()
  .openapi(recordListenRoute, async (c) => {
    const listen = await recordListen(historyContext(c), c.req.valid("param").trackId);
    return c.json(listen, 201);
  })
  .openapi(listHistoryRoute, async (c) => {
    const entries = await listHistory(historyContext(c), c.req.valid("query"));
    return c.json(entries, 200);
  })
  .openapi(clearHistoryRoute, async (c) => {
    await clearHistory(historyContext(c));
    return c.body(null, 204);
  })
  .openapi(removeTrackRoute, async (c) => {
    const deleted = await removeTrack(historyContext(c), c.req.valid("param").trackId);
    return c.json({ deleted }, 200);
  });
