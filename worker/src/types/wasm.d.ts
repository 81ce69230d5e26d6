// wrangler (and the Workers test pool) compile `.wasm` imports ahead of time into modules:
// workerd forbids compiling WebAssembly from bytes at run time.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
