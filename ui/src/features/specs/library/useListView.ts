// The library's list (search, filters, page size, page, sort, archived shown) lives in the address
// (./listAddress.ts), so Back from an opened spec, Forward and a relaunch reopen the very list the
// user left. Every change replaces the history entry rather than adding one, as a plan's filter
// chip does: Back leaves the list instead of stepping through each filter, page or search (the
// search is written once the typing pauses, never per keystroke), and the entry keeps its scroll
// position (features/shell/scrollMemory.ts).
//
// The list is also kept in the component: a change shows at once, and a screen test that renders
// the library without the router works the same. The address wins whenever it changes on its own
// (Back, Forward, the palette, a hash typed in).
//
// Another connection starts on the default list: a search, a filter and above all a page chosen
// among one connection's specs say nothing about another's (page 4 of the Sandbox may not exist on
// Work), and the library has always opened a connection on its defaults. This holds for a switch
// made while the list is shown (the palette) and for one made elsewhere (Settings, then Back to a
// list of the other connection): the list notes the connection it was last shown for.
import { useEffect, useState } from "react";
import { useNavigate, useRoute } from "../../../lib/nav";
import { DEFAULT_VIEW, formatList, parseList, type ListView } from "./listAddress";

/** The connection the list was last shown for, in this window (null: not yet shown). */
let shownFor: string | null = null;

/** Forgets the connection the list was last shown for (tests). */
export function forgetListConnection(): void {
  shownFor = null;
}

export function useListView(profileId: string): [ListView, (patch: Partial<ListView>) => void] {
  const route = useRoute();
  const navigate = useNavigate();
  const address = route.area === "specs" && !route.specId ? (route.list ?? "") : "";
  // Decided once per connection: the library remounts when the connection changes.
  // (An unknown connection, "" while the settings are read, is no switch.)
  const [switched] = useState(() => shownFor !== null && profileId !== "" && shownFor !== profileId);
  const [view, setView] = useState<ListView>(() => (switched ? DEFAULT_VIEW : parseList(address)));
  // The address this view follows: when it changes, the view is read from it again (during
  // render, as React advises for state that follows props).
  const [followed, setFollowed] = useState(address);
  if (address !== followed) {
    setFollowed(address);
    setView(parseList(address));
  }

  useEffect(() => {
    if (profileId) shownFor = profileId;
    if (switched) navigate({ area: "specs", list: "" }, { replace: true });
  }, [profileId, switched, navigate]);

  const update = (patch: Partial<ListView>) => {
    const next = { ...view, ...patch };
    setView(next);
    navigate({ area: "specs", list: formatList(next) }, { replace: true });
  };
  return [view, update];
}
