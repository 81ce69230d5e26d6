import { render } from "preact";
import { App } from "./app.tsx";
import { prefetchHls } from "./player/engine.ts";
import "./styles.css";

const root = document.getElementById("app");
if (root) render(<App />, root);
addEventListener("load", prefetchHls, { once: true });
