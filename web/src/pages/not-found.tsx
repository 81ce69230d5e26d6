// Any path the router does not know.
import { PageTitle } from "../ui/headings.tsx";

export function NotFound() {
  return (
    <>
      <PageTitle title="Not found">Nothing here</PageTitle>
      <p>
        This page does not exist. <a href="/">Back to the start</a>.
      </p>
    </>
  );
}
