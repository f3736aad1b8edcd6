// The small marks of an acceptance run: a criterion's verdict, a story's, and what changed since
// the previous run. Icon and words, never colour alone.
import { StatusIconSvg } from "../watch/StatusChip";
import type { StatusIcon, StatusTone } from "../watch/statuses";
import { CHANGE_WORDS, STORY_WORDS, VERDICT_WORDS, storyCount, type Change, type StoryResult, type Verdict } from "./model";
import "./acceptance.css";

const VERDICT_LOOK: Record<Verdict, { icon: StatusIcon; tone: StatusTone }> = {
  passed: { icon: "check", tone: "success" },
  failed: { icon: "cross", tone: "danger" },
  unchecked: { icon: "question", tone: "warning" },
  pending: { icon: "dots", tone: "info" },
};

const STORY_LOOK: Record<StoryResult["verdict"], Verdict> = {
  passes: "passed",
  fails: "failed",
  unchecked: "unchecked",
  pending: "pending",
};

export function VerdictChip({ verdict }: { verdict: Verdict }) {
  const look = VERDICT_LOOK[verdict];
  return (
    <span className="verdict-chip" data-tone={look.tone} data-verdict={verdict}>
      <StatusIconSvg icon={look.icon} />
      {VERDICT_WORDS[verdict]}
    </span>
  );
}

/** A story's verdict with its count, e.g. "✗ Fails · 1 of 2 criteria pass". */
export function StoryChip({ result }: { result: StoryResult }) {
  const look = VERDICT_LOOK[STORY_LOOK[result.verdict]];
  return (
    <span className="verdict-chip" data-tone={look.tone} data-verdict={result.verdict} title={storyCount(result)}>
      <StatusIconSvg icon={look.icon} />
      {STORY_WORDS[result.verdict]} · {storyCount(result)}
    </span>
  );
}

export function ChangeTag({ change }: { change: Change }) {
  return (
    <span className="change-tag" data-change={change}>
      {CHANGE_WORDS[change]}
    </span>
  );
}
