// Keyboard shortcuts of the player, anywhere on the page but where a control takes the key:
// Space or K play/pause, ← → seek 5 s, Shift+← → previous/next, Shift+↑ ↓ volume, M mute,
// / search. They can be turned off (WCAG 2.1.4: single-character shortcuts), on /shortcuts.
import { signal } from "@preact/signals";
import { player } from "./engine.ts";

export const SHORTCUTS: [string, string][] = [
  ["Space / K", "Play or pause"],
  ["← / →", "Back or forward 5 seconds"],
  ["Shift + ← / →", "Previous or next track"],
  ["Shift + ↑ / ↓", "Volume up or down"],
  ["M", "Mute or unmute"],
  ["/", "Search"],
];

const OFF_KEY = "edge-music.shortcuts";

/** Whether the shortcuts are on (the default), remembered on this device. */
export const shortcutsOn = signal(localStorage.getItem(OFF_KEY) !== "off");

export function setShortcutsOn(on: boolean): void {
  shortcutsOn.value = on;
  localStorage.setItem(OFF_KEY, on ? "on" : "off");
}

/** Text is typed here: every key is the field's. */
const typing = (target: HTMLElement) =>
  target.isContentEditable ||
  ["TEXTAREA", "SELECT"].includes(target.tagName) ||
  (target instanceof HTMLInputElement &&
    !["range", "checkbox", "radio", "button", "submit", "reset", "file", "color"].includes(
      target.type,
    ));

// Widgets that move or choose with the arrows (native or ARIA).
const ARROW_ROLES = "[role=slider],[role=listbox],[role=radiogroup],[role=tablist],[role=menu]";

/** The focused control does something with this key itself: leave it alone. */
export function controlTakes(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (typing(target)) return true;
  const type = target instanceof HTMLInputElement ? target.type : "";
  const arrow = key.startsWith("Arrow");
  // Space presses buttons and links, ticks checkboxes, picks radios.
  if (key === " ") {
    return (
      target instanceof HTMLButtonElement ||
      target instanceof HTMLAnchorElement ||
      target.tagName === "SUMMARY" ||
      ["checkbox", "radio", "button", "submit", "reset", "file", "color"].includes(type) ||
      target.closest("[role=button],[role=checkbox],[role=switch],[role=option]") !== null
    );
  }
  // Arrows move a range, the choice among radios, an ARIA widget's selection.
  return arrow && (type === "range" || type === "radio" || target.closest(ARROW_ROLES) !== null);
}

export function installShortcuts(): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (!shortcutsOn.value) return;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (controlTakes(event.target, event.key)) return;
    let handled = true;
    switch (event.key) {
      case " ":
      case "k":
      case "K":
        player.toggle();
        break;
      case "ArrowLeft":
        if (event.shiftKey) player.previous();
        else player.seekBy(-5);
        break;
      case "ArrowRight":
        if (event.shiftKey) player.next();
        else player.seekBy(5);
        break;
      // Plain ↑/↓ scroll the page, as everywhere.
      case "ArrowUp":
        if (!event.shiftKey) return;
        player.setVolume(player.volume.value + 0.05);
        break;
      case "ArrowDown":
        if (!event.shiftKey) return;
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
