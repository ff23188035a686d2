// SQL text as SQLite reads it, for comparing definitions (test/schema.test.ts, read-models.test.ts).

/** SQL text compared as SQLite reads it: no comments, blanks or identifier quotes; case only in string literals. */
export function normalSql(sql: string): string {
  let out = "";
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    if (c === "'") {
      // A string literal, '' inside it included, as it is.
      let j = i + 1;
      for (; j < sql.length; j++) if (sql[j] === "'" && sql[j + 1] !== "'") break;
      else if (sql[j] === "'") j++;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
    } else if (c === "`" || c === '"' || c === "[" || c === "]") i++;
    else if (/\s/.test(c)) {
      out += " ";
      while (i < sql.length && /\s/.test(sql[i]!)) i++;
    } else {
      out += c.toLowerCase();
      i++;
    }
  }
  return out
    .replace(/\s+/g, " ")
    .replace(/ ?([(),;=<>+*/|-]) ?/g, "$1")
    .trim()
    .replace(/;$/, "");
}
