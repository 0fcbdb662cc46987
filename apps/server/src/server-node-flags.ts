/**
 * The V8 heap limits the server process runs with: `npm run serve` (and so `npm start`) passes
 * them in package.json, and the process tests and the benchmark start the server with the same
 * (`test/server-process.ts`); `server-node-flags.test.ts` keeps package.json in step with this list.
 *
 * Why: V8 grows its heap with the allocation rate, not with what is live. The server holds ~50 MB
 * live, but after a few thousand requests, or during an export that writes hundreds of megabytes of
 * short-lived strings, V8 had let the heap grow to 250–300 MB before collecting, and the process sat
 * at ~450 MB (bench/, issue 16). Bounded, it collects sooner at a small CPU cost and stays under
 * 256 MB (docs/PERFORMANCE.md has the figures). Exports and downloads stream, so no request needs
 * anything near the limit; PGlite's database memory lies outside this heap. The young generation
 * keeps V8's default: halving it (8 MB semi-spaces) cost saves and exports ~18 % of their
 * throughput in promotions and scavenges.
 */
export const SERVER_NODE_FLAGS = ['--max-old-space-size=192'] as const;

/**
 * The C library's memory setting the server process starts with (`npm run serve` sets it in front of
 * `node`; the process tests and the benchmark set it in the child's environment).
 *
 * Why: a download or an export allocates tens of thousands of 32–64 KB buffers that die young. glibc
 * serves allocations under its mmap threshold from its heaps, and raises that threshold itself after
 * freeing a large block, so freed buffers stayed in the process as fragmented heap: the resident set
 * rose by 45–50 MB during an 81 MB download and stayed there. With a fixed threshold of 32 KB, such
 * buffers are mapped and unmapped whole. Measured at 5,000 subjects on PostgreSQL, same database, runs
 * side by side (2026-12-07): export job peak 255–259 → 229–238 MB, download peak 301–305 → 258–270 MB
 * (docs/PERFORMANCE.md). Ignored where the C library is not glibc.
 */
export const SERVER_ENVIRONMENT = { MALLOC_MMAP_THRESHOLD_: '32768' } as const;
