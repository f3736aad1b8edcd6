export type Area = "specs" | "plans" | "agents" | "gateway";

const AREAS: Record<Area, { title: string; intro: string; coming: string }> = {
  specs: {
    title: "Specs",
    intro: "Describe what you want to build and get a complete, structured spec.",
    coming: "The spec composer, your spec library and rendered specs arrive here next.",
  },
  plans: {
    title: "Plans",
    intro: "Follow a project's verified plan: features, progress and launch readiness.",
    coming: "Plan progress, features, the app map and progress over time arrive here next.",
  },
  agents: {
    title: "Browser agents",
    intro: "Run batches of browser tasks and watch each one live.",
    coming: "The batch builder and live task timelines arrive here next.",
  },
  gateway: {
    title: "Gateway",
    intro: "Chat, rerank, speech, music, transcription, images and video from many AI labs.",
    coming: "The chat, audio, image and video studios arrive here next.",
  },
};

export function AreaFrame({ area }: { area: Area }) {
  const a = AREAS[area];
  return (
    <section className="page" aria-labelledby={`${area}-title`}>
      <h1 id={`${area}-title`}>{a.title}</h1>
      <p className="muted">{a.intro}</p>
      <div className="empty">{a.coming}</div>
    </section>
  );
}
