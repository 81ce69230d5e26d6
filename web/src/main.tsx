import { render } from "preact";
import { App } from "./app.tsx";
import { prefetchHls } from "./player/engine.ts";
import "./styles.css";
// Last: the phone's narrower player bar overrides styles.css and the player's own sheet.
import "./ui/phone.css";

const root = document.getElementById("app");
if (root) render(<App />, root);
addEventListener("load", prefetchHls, { once: true });
