// What a trial key allows, said once the service has shown that the connection in use is on the
// AI gateway's free trial (`ProfileView.trial`): the spec's trial limits in plain words.
import { useConnectionId, useProfiles } from "../../../ipc/hooks";

export const TRIAL_NOTE =
  "This connection's key is on the AI gateway's free trial: 5 credits of gateway use in all, and at most 30 calls a minute (Specdesk paces its calls to keep within it). Subscribe on the service to go on once the trial is used up.";

export function TrialNote() {
  const connection = useConnectionId();
  const profiles = useProfiles();
  const trial = profiles.data?.find((p) => p.id === connection)?.trial === true;
  if (!trial) return null;
  return (
    <p className="trial-note" role="note">
      <span className="badge badge-trial">Free trial</span> {TRIAL_NOTE}
    </p>
  );
}
