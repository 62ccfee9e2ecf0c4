// Checks and edits of wrangler.toml for deployment.

/** Local-only settings must be off in what gets deployed; returns the problems found. */
export function localOnlySettingsProblems(config) {
  const vars = config.vars ?? {};
  const problems = [];
  const allowPrivate = String(vars.ALLOW_PRIVATE_NETWORK ?? "false").trim();
  if (allowPrivate !== "false" && allowPrivate !== "") {
    problems.push(
      `ALLOW_PRIVATE_NETWORK is "${allowPrivate}"; the deployed service must not reach private networks ("false")`,
    );
  }
  const origins = String(vars.PUBLISHER_ORIGINS ?? "").trim();
  if (origins !== "" && origins !== "{}") {
    problems.push(
      `PUBLISHER_ORIGINS is ${origins}; it redirects publishers to other origins and must be empty when deployed`,
    );
  }
  // A self-hosted relay is a legitimate provider origin; a loopback or private one is a local fake.
  const providers = String(vars.PROVIDER_ORIGINS ?? "").trim();
  if (providers !== "" && providers !== "{}") {
    let local = [];
    try {
      local = Object.entries(JSON.parse(providers)).filter(([, origin]) => isLocalOrigin(String(origin)));
    } catch {
      problems.push(`PROVIDER_ORIGINS is not JSON: ${providers}`);
    }
    for (const [name, origin] of local) {
      problems.push(
        `PROVIDER_ORIGINS sends ${name} to ${origin}, a local address (a test fake); it must be a public origin or absent when deployed`,
      );
    }
  }
  return problems;
}

function isLocalOrigin(origin) {
  const host =
    URL.parse(origin)
      ?.hostname.replace(/^\[|\]$/g, "")
      .toLowerCase() ?? "";
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    host === "0.0.0.0"
  );
}

/** Every queue the Worker produces to or consumes from, dead-letter queues included. */
export function queueNames(config) {
  const names = new Set();
  for (const producer of config.queues?.producers ?? []) names.add(producer.queue);
  for (const consumer of config.queues?.consumers ?? []) {
    names.add(consumer.queue);
    if (consumer.dead_letter_queue) names.add(consumer.dead_letter_queue);
  }
  return [...names];
}

/**
 * Sets database_id in the [[d1_databases]] table whose database_name matches, leaving the rest
 * of the file (comments, layout) as it is.
 */
export function withDatabaseId(toml, databaseName, databaseId) {
  const lines = toml.split("\n");
  let inD1 = false;
  let nameMatches = false;
  let idLine = -1;
  const found = [];
  const close = () => {
    if (inD1 && nameMatches && idLine >= 0) found.push(idLine);
  };
  lines.forEach((line, i) => {
    if (/^\s*\[/.test(line)) {
      close();
      inD1 = /^\s*\[\[d1_databases\]\]\s*$/.test(line);
      nameMatches = false;
      idLine = -1;
    } else if (inD1) {
      const name = line.match(/^\s*database_name\s*=\s*"([^"]*)"/);
      if (name) nameMatches = name[1] === databaseName;
      if (/^\s*database_id\s*=/.test(line)) idLine = i;
    }
  });
  close();
  if (found.length !== 1)
    throw new Error(
      `wrangler.toml needs exactly one [[d1_databases]] with database_name = "${databaseName}" and a database_id line`,
    );
  lines[found[0]] = lines[found[0]].replace(/=\s*"[^"]*"/, `= "${databaseId}"`);
  return lines.join("\n");
}

/**
 * The names of the secrets a Worker already has, from `wrangler secret list --format json` (its
 * exit status and output). A listing that failed counts as "no secrets" only when it failed because
 * the Worker does not exist yet; any other failure throws, because guessing wrong would make the
 * deploy replace a live ENCRYPTION_KEY and leave every stored cookie and webhook secret unreadable.
 */
export function presentSecrets({ status, stdout, stderr }) {
  if (status === 0) return new Set(JSON.parse(stdout).map((secret) => secret.name));
  if (/10007|does not exist|not found/i.test(stderr + stdout)) return new Set();
  throw new Error(`could not list the Worker's secrets:\n${stderr || stdout}`);
}
