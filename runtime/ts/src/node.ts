// `@bitwire/runtime/node`: what only Node-compatible runtimes have — `node:zlib` as the
// framer's zlib and connections over `node:net`. Bun and Deno run it too (both provide
// `node:net` and `node:zlib`); their own socket APIs have `@bitwire/runtime/bun` and
// `@bitwire/runtime/deno`.

export { nodeZlib } from "./node/zlib.js";
export {
  type TcpOptions,
  type TcpServer,
  type TcpServerOptions,
  connectTcp,
  listenTcp,
  socketConnection,
} from "./node/net.js";
