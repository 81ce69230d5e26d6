import { newRouter } from "../../../openapi/router.ts";
import { socialContext } from "./context.ts";
import { followingRoute, followRoute, likeRoute, unfollowRoute, unlikeRoute } from "./routes.ts";
import {
  followArtist,
  likeArtist,
  listFollowing,
  unfollowArtist,
  unlikeArtist,
} from "./service.ts";

/** Following and liking artists (users); mounted under /api/v1/artists. */
export const artistSocialRoutes = newRouter()
  .openapi(followingRoute, async (c) => {
    const artists = await listFollowing(socialContext(c), c.req.valid("query"));
    return c.json(artists, 200);
  })
  .openapi(followRoute, async (c) => {
    return c.json(await followArtist(socialContext(c), c.req.valid("param").id), 200);
  })
  .openapi(unfollowRoute, async (c) => {
    return c.json(await unfollowArtist(socialContext(c), c.req.valid("param").id), 200);
  })
  .openapi(likeRoute, async (c) => {
    return c.json(await likeArtist(socialContext(c), c.req.valid("param").id), 200);
  })
  .openapi(unlikeRoute, async (c) => {
    return c.json(await unlikeArtist(socialContext(c), c.req.valid("param").id), 200);
  });
