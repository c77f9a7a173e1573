// A page's localStorage, in memory: what the pure modules read and write, for Node's test runner.
export function memory() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { items.set(key, String(value)); },
    removeItem: (key) => { items.delete(key); }
  };
}
