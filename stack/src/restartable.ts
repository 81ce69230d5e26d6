/**
 * A part of the local infrastructure that fault tests take down and bring back: the same port and
 * the same data folder, so clients reconnect to it as to a restarted production server.
 */
export interface Restartable {
  /** Stops the server; its data stays (when it has any). Does nothing if it is down already. */
  down(): Promise<void>;
  /** Starts it again and resolves once it answers. Does nothing if it is up already. */
  up(): Promise<void>;
}
