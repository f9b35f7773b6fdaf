// Apply a state patch from the server (docs/protocol.md, "Deltas"): JSON Patch (RFC 6902)
// operations "add", "replace" and "remove" on JSON Pointer paths (RFC 6901) through objects,
// and "add" at "/path/-" (append to the array there). The state given is
// never modified: objects along each path are copied, everything else is shared, so a renderer
// may keep the previous state and compare. app/rooms/delta.py makes these patches.

/** "/view/a~1b" → ["view", "a/b"] */
function tokens(path) {
  return path.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function setIn(node, keys, op, value) {
  const [head, ...rest] = keys;
  if (Array.isArray(node) && rest.length === 0 && head === "-" && op === "add") {
    return [...node, value];  // append
  }
  if (!isObject(node)) throw new Error("patch path goes through a non-object");
  const copy = {...node};
  if (rest.length === 0) {
    if (op === "remove") {
      if (!(head in copy)) throw new Error(`nothing to remove at ${head}`);
      delete copy[head];
    } else {
      copy[head] = value;
    }
    return copy;
  }
  if (!(head in copy)) throw new Error(`no member ${head} on the patch path`);
  copy[head] = setIn(copy[head], rest, op, value);
  return copy;
}

/**
 * The state after the patch; throws Error when an operation cannot be applied (then ask the
 * server for a snapshot).
 * @param {object|null} state
 * @param {Array<{op:string, path:string, value?:any}>} patch
 */
export function applyPatch(state, patch) {
  for (const {op, path, value} of patch) {
    if (!["add", "replace", "remove"].includes(op) || typeof path !== "string") {
      throw new Error(`unsupported patch operation ${op}`);
    }
    if (path === "") {
      if (op === "remove") throw new Error("cannot remove the whole state");
      state = value;
      continue;
    }
    if (state === null || !path.startsWith("/")) throw new Error(`bad patch path ${path}`);
    state = setIn(state, tokens(path), op, value);
  }
  if (!isObject(state)) throw new Error("the patched state is not an object");
  return state;
}
