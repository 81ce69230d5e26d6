export { albumRoutes } from "./routes.ts";
