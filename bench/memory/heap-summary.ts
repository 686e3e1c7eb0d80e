// What a V8 heap snapshot holds: self size by kind and constructor, the largest single objects
// with the shortest chain of references that keeps each alive (from the GC roots), and the largest
// retainers: objects by retained size (what freeing them would free, from the dominator tree).
//   npx tsx bench/memory/heap-summary.ts <file.heapsnapshot> [rows]
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const file = process.argv[2];
const rows = Number(process.argv[3] ?? 25);
if (!file) {
  console.error('usage: heap-summary.ts <file.heapsnapshot> [rows]');
  process.exit(2);
}
const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const { meta } = heap.snapshot;
const nodeWidth = meta.node_fields.length;
const edgeWidth = meta.edge_fields.length;
const field = (name: string, fields: string[]) => fields.indexOf(name);
const TYPE = field('type', meta.node_fields);
const NAME = field('name', meta.node_fields);
const SELF = field('self_size', meta.node_fields);
const EDGES = field('edge_count', meta.node_fields);
const EDGE_TYPE = field('type', meta.edge_fields);
const EDGE_NAME = field('name_or_index', meta.edge_fields);
const EDGE_TO = field('to_node', meta.edge_fields);
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const count = heap.nodes.length / nodeWidth;

const firstEdge = new Uint32Array(count + 1);
for (let node = 0; node < count; node += 1)
  firstEdge[node + 1] = firstEdge[node] + heap.nodes[node * nodeWidth + EDGES];

const kindOf = (node: number) => nodeTypes[heap.nodes[node * nodeWidth + TYPE]];
const nameOf = (node: number) => heap.strings[heap.nodes[node * nodeWidth + NAME]];
const selfOf = (node: number) => heap.nodes[node * nodeWidth + SELF];

function label(node: number): string {
  const kind = kindOf(node);
  if (kind === 'object' || kind === 'closure' || kind === 'native') return `${kind} ${nameOf(node)}`;
  if (kind === 'string' || kind === 'concatenated string' || kind === 'sliced string') return '(string)';
  return `(${kind})`;
}

const bySort = new Map<string, { bytes: number; count: number }>();
let total = 0;
for (let node = 0; node < count; node += 1) {
  const entry = bySort.get(label(node)) ?? { bytes: 0, count: 0 };
  entry.bytes += selfOf(node);
  entry.count += 1;
  bySort.set(label(node), entry);
  total += selfOf(node);
}

// Shortest retaining path: breadth-first from the root over strong edges.
const parent = new Int32Array(count).fill(-1);
const parentEdge = new Int32Array(count).fill(-1);
parent[0] = 0;
const queue = new Uint32Array(count);
let head = 0;
let tail = 1;
while (head < tail) {
  const node = queue[head++];
  for (let edge = firstEdge[node]; edge < firstEdge[node + 1]; edge += 1) {
    const offset = edge * edgeWidth;
    if (edgeTypes[heap.edges[offset + EDGE_TYPE]] === 'weak') continue;
    const to = heap.edges[offset + EDGE_TO] / nodeWidth;
    if (parent[to] !== -1) continue;
    parent[to] = node;
    parentEdge[to] = edge;
    queue[tail++] = to;
  }
}

function edgeName(edge: number): string {
  const offset = edge * edgeWidth;
  const type = edgeTypes[heap.edges[offset + EDGE_TYPE]];
  const value = heap.edges[offset + EDGE_NAME];
  return type === 'element' || type === 'hidden' ? `[${value}]` : heap.strings[value];
}

function pathOf(node: number): string {
  const steps: string[] = [];
  let current = node;
  while (current > 0 && parent[current] !== -1 && steps.length < 12) {
    steps.push(`${label(current)} via ${edgeName(parentEdge[current])}`);
    current = parent[current];
  }
  return steps.reverse().join(' ← ');
}

// Dominator tree (Cooper, Harvey and Kennedy's iteration over the reverse post-order) on the same
// strong edges; an object's retained size is its own plus that of every object it dominates.
const postOrder = new Int32Array(count).fill(-1);
const byPostOrder = new Uint32Array(count);
let visited = 0;
{
  const stack = new Uint32Array(count);
  const nextEdge = new Uint32Array(count);
  const seen = new Uint8Array(count);
  let depth = 0;
  stack[depth++] = 0;
  seen[0] = 1;
  nextEdge[0] = firstEdge[0];
  while (depth > 0) {
    const node = stack[depth - 1];
    let pushed = false;
    while (nextEdge[node] < firstEdge[node + 1]) {
      const offset = nextEdge[node]++ * edgeWidth;
      if (edgeTypes[heap.edges[offset + EDGE_TYPE]] === 'weak') continue;
      const to = heap.edges[offset + EDGE_TO] / nodeWidth;
      if (seen[to]) continue;
      seen[to] = 1;
      nextEdge[to] = firstEdge[to];
      stack[depth++] = to;
      pushed = true;
      break;
    }
    if (pushed) continue;
    depth -= 1;
    postOrder[node] = visited;
    byPostOrder[visited++] = node;
  }
}
const reachable = byPostOrder.subarray(0, visited);
const predecessorCount = new Uint32Array(count + 1);
for (let node = 0; node < count; node += 1)
  for (let edge = firstEdge[node]; edge < firstEdge[node + 1]; edge += 1)
    if (edgeTypes[heap.edges[edge * edgeWidth + EDGE_TYPE]] !== 'weak')
      predecessorCount[heap.edges[edge * edgeWidth + EDGE_TO] / nodeWidth + 1] += 1;
for (let node = 0; node < count; node += 1) predecessorCount[node + 1] += predecessorCount[node];
const predecessors = new Uint32Array(predecessorCount[count]);
{
  const filled = predecessorCount.slice(0, count);
  for (let node = 0; node < count; node += 1)
    for (let edge = firstEdge[node]; edge < firstEdge[node + 1]; edge += 1)
      if (edgeTypes[heap.edges[edge * edgeWidth + EDGE_TYPE]] !== 'weak')
        predecessors[filled[heap.edges[edge * edgeWidth + EDGE_TO] / nodeWidth]++] = node;
}
const dominator = new Int32Array(count).fill(-1);
dominator[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (postOrder[a] < postOrder[b]) a = dominator[a];
    while (postOrder[b] < postOrder[a]) b = dominator[b];
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let index = reachable.length - 1; index >= 0; index -= 1) {
    const node = reachable[index];
    if (node === 0) continue;
    let candidate = -1;
    for (let at = predecessorCount[node]; at < predecessorCount[node + 1]; at += 1) {
      const from = predecessors[at];
      if (postOrder[from] < 0 || dominator[from] === -1) continue;
      candidate = candidate === -1 ? from : intersect(from, candidate);
    }
    if (candidate !== -1 && dominator[node] !== candidate) {
      dominator[node] = candidate;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (const node of reachable) {
  retained[node] += selfOf(node);
  if (node !== 0) retained[dominator[node]] += retained[node];
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
console.log(`${file}: ${count.toLocaleString('en-US')} objects, ${mb(total)} of self size\n`);
console.log('| kind / constructor | self size | objects |\n|---|---|---|');
for (const [name, entry] of [...bySort].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, rows))
  console.log(`| ${name} | ${mb(entry.bytes)} | ${entry.count.toLocaleString('en-US')} |`);

const largest = Array.from({ length: count }, (_, node) => node)
  .sort((a, b) => selfOf(b) - selfOf(a))
  .slice(0, rows);
console.log('\nLargest single objects, with the shortest chain that holds each (root first):\n');
for (const node of largest) console.log(`- ${mb(selfOf(node))} ${label(node)}: ${pathOf(node)}`);

// Synthetic nodes (the roots, their groups) and the module system's containers retain nearly
// everything; the interesting retainers are the objects of the application below them.
const isSynthetic = (node: number) => kindOf(node) === 'synthetic' || kindOf(node) === 'hidden';
// Of a chain of objects that retain about the same (a promise, the market, its dataset, its array),
// only the outermost is listed.
const retainers = reachable
  .filter((node) => !isSynthetic(node) && retained[node] >= 1048576)
  .filter((node) => isSynthetic(dominator[node]) || retained[dominator[node]] > 1.05 * retained[node])
  .sort((a, b) => retained[b] - retained[a])
  .slice(0, rows);
console.log('\nLargest retainers (retained size of at least 1 MB), with the chain that holds each:\n');
for (const node of retainers)
  console.log(`- ${mb(retained[node])} retained, ${mb(selfOf(node))} own: ${label(node)}: ${pathOf(node)}`);
