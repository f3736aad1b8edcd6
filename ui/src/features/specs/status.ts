// Words and tones for spec and job states.
import type { JobStatus } from "../../bindings/JobStatus";

export type Tone = "neutral" | "info" | "success" | "danger" | "warning";

export function specStatusInfo(status: string | undefined): { label: string; tone: Tone; icon: string } {
  switch (status) {
    case "pending":
      return { label: "Waiting to start", tone: "neutral", icon: "○" };
    case "processing":
      return { label: "Generating", tone: "info", icon: "◔" };
    case "completed":
      return { label: "Completed", tone: "success", icon: "✓" };
    case "failed":
      return { label: "Failed", tone: "danger", icon: "✕" };
    default:
      return { label: status ? `Status: ${status}` : "Unknown status", tone: "neutral", icon: "?" };
  }
}

export function depthLabel(endpoint: string | undefined): string {
  if (endpoint === "deep_spec" || endpoint === "deep") return "Deep";
  if (endpoint === "fast_spec" || endpoint === "fast") return "Fast";
  return endpoint ?? "—";
}

export function jobStatusInfo(status: JobStatus | string): { label: string; tone: Tone } {
  switch (status) {
    case "queued":
      return { label: "Waiting to send", tone: "neutral" };
    case "submitted":
      return { label: "Sent, waiting for the service", tone: "info" };
    case "running":
      return { label: "Generating", tone: "info" };
    case "completed":
      return { label: "Completed", tone: "success" };
    case "failed":
      return { label: "Failed", tone: "danger" };
    case "cancelled":
      return { label: "No longer followed", tone: "warning" };
    default:
      return { label: String(status), tone: "neutral" };
  }
}
