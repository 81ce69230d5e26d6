import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method, noArgs, type OpenMethod } from "./method.ts";

/** The one music folder: the whole catalogue. */
export const MUSIC_FOLDER = { id: 1, name: "Edge Music" };

/** OpenSubsonic extensions we serve, with their versions. */
const EXTENSIONS = [
  { name: "apiKeyAuthentication", versions: [1] },
  { name: "formPost", versions: [1] },
];

/** Answered without credentials (OpenSubsonic: apps ask before they sign in). */
export const openMethods: Record<string, OpenMethod> = {
  getOpenSubsonicExtensions: { answer: () => ({ openSubsonicExtensions: EXTENSIONS }) },
};

export const systemMethods = {
  ping: method({ args: noArgs, answer: () => ({}) }),
  getLicense: method({ args: noArgs, answer: () => ({ license: { valid: true } }) }),
  // No library scan exists: uploads are converted as they come, so nothing is ever scanning.
  getScanStatus: method({ args: noArgs, answer: () => ({ scanStatus: { scanning: false } }) }),
  getMusicFolders: method({
    args: noArgs,
    answer: () => ({ musicFolders: { musicFolder: [MUSIC_FOLDER] } }),
  }),
  getUser: method({
    args: (params) => params.get("username") ?? undefined,
    answer: ({ args: username, caller }) => {
      // Only one's own account: nobody administers others through this door.
      if (username !== undefined && username.toLowerCase() !== caller.username.toLowerCase()) {
        throw new SubsonicError(
          SUBSONIC_ERRORS.notAuthorized,
          "User is not authorized for the given operation: only your own account.",
        );
      }
      return {
        user: {
          username: caller.username,
          // Listening history is a listener's: an artist's scrobbles keep nothing.
          scrobblingEnabled: caller.kind === "user",
          adminRole: false,
          settingsRole: false,
          downloadRole: true,
          uploadRole: false,
          playlistRole: true,
          coverArtRole: false,
          commentRole: false,
          podcastRole: false,
          streamRole: true,
          jukeboxRole: false,
          shareRole: false,
          videoConversionRole: false,
          folder: [MUSIC_FOLDER.id],
        },
      };
    },
  }),
};
