// The artist's studio: own tracks (live conversion status), upload, albums, profile.
export { StudioAlbums } from "./studio/albums.tsx";
export { StudioProfile } from "./studio/profile.tsx";
export { Studio } from "./studio/tracks.tsx";
export { Upload } from "./studio/upload.tsx";
