// Checks made before a command is sent, with the same rules and words as the Rust side
// (specdesk_client::validate_base_url), so a draft is never sent just to be refused.

export type FieldErrors = Partial<Record<string, string>>;

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Null when the address is acceptable, else the message to show. */
export function checkBaseUrl(raw: string): string | null {
  const value = raw.trim();
  if (!value) return "Enter the service address, for example https://api.example.com.";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a web address. Enter it in full, for example https://api.example.com.`;
  }
  if (url.protocol === "http:") {
    if (!isLoopback(url.hostname)) {
      return "The address must start with https:// so your API key is never sent in clear. Plain http:// is allowed only for this computer (localhost).";
    }
  } else if (url.protocol !== "https:") {
    return `Addresses starting with ${url.protocol} are not supported. Use https://.`;
  }
  if (!url.hostname) return "The address has no host name.";
  if (url.username || url.password) {
    return "Do not put a user name or password in the address; enter your API key in its own field.";
  }
  if (url.search || url.hash) return "The address must not contain ? or #. Enter only the service's base address.";
  return null;
}

export function checkProfileName(name: string): string | null {
  const n = name.trim();
  if (!n) return "Give this connection a name.";
  if ([...n].length > 80) return "Keep the name under 80 characters.";
  return null;
}

export function checkApiKey(key: string): string | null {
  const k = key.trim();
  if (!k) return "Paste your API key.";
  if (/\s/.test(k)) return "An API key has no spaces or line breaks. Copy it again from your account page.";
  return null;
}

export function checkProjectId(id: string): string | null {
  const p = id.trim();
  if (!p) return null;
  return /^[0-9a-fA-F]{24}$/.test(p)
    ? null
    : "A project id is 24 characters, each 0-9 or a-f. Leave it empty to not attribute usage to a project.";
}
