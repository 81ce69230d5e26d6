// A listener's own things: their playlists (and a new one), the artists they follow, what they
// like, and what they listened to lately.
export { Following } from "./library/following.tsx";
export { History } from "./library/history.tsx";
export { Liked } from "./library/liked.tsx";
export { Library } from "./library/playlists.tsx";
