/** A file's text, imported with Vite's `?raw` suffix (the shapes test hashes its inputs). */
declare module "*?raw" {
  const text: string;
  export default text;
}
