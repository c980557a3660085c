/** @type {import('next').NextConfig} */
const nextConfig = {
  // The embedded database ships WebAssembly and the drivers open sockets: keep them out of the
  // server bundle and load them from node_modules at run time (sharp: native libvips binaries).
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'ioredis', 'sharp'],
  poweredByHeader: false,
  reactStrictMode: true,
  // CI type-checks the tree with tsc before it builds (.ci/run) and skips the build's second pass.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === '1' },
};

export default nextConfig;
