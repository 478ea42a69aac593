// Used by bundle-app.mjs: a source map that maps our own code only (tested in test/source-map-own-code.spec.ts).
/**
 * The source map keeps the mappings of our own code (apps and libs, back to their .ts through tsc's maps) and drops
 * those of node_modules: production runs with `--enable-source-maps`, which reads the whole map at start, and the
 * packages' mappings were 90 % of it (on the gateway, 83 MiB more resident and 0.8 s more CPU at start). A frame in a
 * package shows its place in main.js instead.
 * @param {{ sources: string[], mappings: string, names?: string[] }} map
 */
export function ownCodeOnly(map) {
  const foreign = map.sources.map((source) => source.includes('node_modules/'));
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  /** @param {string} text */
  const decode = (text) => {
    const values = [];
    let value = 0;
    let shift = 0;
    for (const char of text) {
      const digit = B64.indexOf(char);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        values.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    return values;
  };
  /** @param {number} number */
  const encode = (number) => {
    let value = number < 0 ? (-number << 1) | 1 : number << 1;
    let out = '';
    do {
      let digit = value & 31;
      value >>>= 5;
      if (value > 0) digit |= 32;
      out += B64.charAt(digit);
    } while (value > 0);
    return out;
  };
  // The source, line, column and name fields are relative to the previous segment's: `read` holds them absolute as
  // read, `written` as last written (a kept segment is written relative to the last kept one).
  const read = { source: 0, line: 0, column: 0, name: 0 };
  const written = { source: 0, line: 0, column: 0, name: 0 };
  const lines = map.mappings.split(';').map((line) => {
    let column = 0;
    let writtenColumn = 0;
    let lastWasUnmapped = false;
    const out = [];
    for (const segment of line ? line.split(',') : []) {
      const [generated = 0, source, sourceLine = 0, sourceColumn = 0, name] = decode(segment);
      column += generated;
      let kept = false;
      if (source !== undefined) {
        read.source += source;
        read.line += sourceLine;
        read.column += sourceColumn;
        if (name !== undefined) read.name += name;
        kept = !foreign[read.source];
      }
      if (kept) {
        let text = encode(column - writtenColumn) + encode(read.source - written.source);
        text += encode(read.line - written.line) + encode(read.column - written.column);
        written.source = read.source;
        written.line = read.line;
        written.column = read.column;
        if (name !== undefined) {
          text += encode(read.name - written.name);
          written.name = read.name;
        }
        out.push(text);
        writtenColumn = column;
        lastWasUnmapped = false;
      } else if (!lastWasUnmapped) {
        // A one-field segment: from here the generated code maps to nothing.
        out.push(encode(column - writtenColumn));
        writtenColumn = column;
        lastWasUnmapped = true;
      }
    }
    return out.join(',');
  });
  return { ...map, mappings: lines.join(';') };
}
