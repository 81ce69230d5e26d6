// Keyboard shortcuts of the player, anywhere on the page but in text fields:
// Space or K play/pause, ← → seek 5 s, Shift+← → previous/next, ↑ ↓ volume, M mute, / search.
import { player } from "./engine.ts";

export const SHORTCUTS: [string, string][] = [
  ["Space / K", "Play or pause"],
  ["← / →", "Back or forward 5 seconds"],
  ["Shift + ← / →", "Previous or next track"],
  ["↑ / ↓", "Volume up or down"],
  ["M", "Mute or unmute"],
  ["/", "Search"],
];

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    ["TEXTAREA", "SELECT"].includes(target.tagName) ||
    (target.tagName === "INPUT" &&
      !["range", "checkbox", "radio", "button"].includes((target as HTMLInputElement).type)));

export function installShortcuts(): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) return;
    // A focused range input moves itself with the arrows; buttons take Space themselves.
    const onRange = event.target instanceof HTMLInputElement && event.target.type === "range";
    const onButton =
      event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement;
    let handled = true;
    switch (event.key) {
      case " ":
        if (onButton) return;
        player.toggle();
        break;
      case "k":
      case "K":
        player.toggle();
        break;
      case "ArrowLeft":
        if (onRange) return;
        if (event.shiftKey) player.previous();
        else player.seekBy(-5);
        break;
      case "ArrowRight":
        if (onRange) return;
        if (event.shiftKey) player.next();
        else player.seekBy(5);
        break;
      case "ArrowUp":
        if (onRange) return;
        player.setVolume(player.volume.value + 0.05);
        break;
      case "ArrowDown":
        if (onRange) return;
        player.setVolume(player.volume.value - 0.05);
        break;
      case "m":
      case "M":
        player.toggleMute();
        break;
      case "/":
        document.getElementById("search")?.focus();
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  };
  window.addEventListener("keydown", onKey);
  return () => window.removeEventListener("keydown", onKey);
}
