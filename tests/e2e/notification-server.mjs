// A stand-in for the desktop's notification server (`org.freedesktop.Notifications` on the test's
// own session bus, scripts/lib/keyring-session.sh): it keeps every notification the app sends and
// lets a test click one, as a person would, by emitting its `ActionInvoked` signal.
import dbus from "dbus-next";

const { Interface } = dbus.interface;
const NAME = "org.freedesktop.Notifications";
const PATH = "/org/freedesktop/Notifications";

class Notifications extends Interface {
  constructor() {
    super(NAME);
    /** Each notification received: { id, app, summary, body, actions }. */
    this.received = [];
  }
  Notify(app, _replaces, _icon, summary, body, actions) {
    const id = this.received.length + 1;
    this.received.push({ id, app, summary, body, actions });
    return id;
  }
  CloseNotification(id) {
    this.NotificationClosed(id, 3);
  }
  GetCapabilities() {
    return ["actions", "body"];
  }
  GetServerInformation() {
    return ["specdesk-tests", "Specdesk", "1.0", "1.2"];
  }
  ActionInvoked(id, key) {
    return [id, key];
  }
  NotificationClosed(id, reason) {
    return [id, reason];
  }
}

Notifications.configureMembers({
  methods: {
    Notify: { inSignature: "susssasa{sv}i", outSignature: "u" },
    CloseNotification: { inSignature: "u", outSignature: "" },
    GetCapabilities: { inSignature: "", outSignature: "as" },
    GetServerInformation: { inSignature: "", outSignature: "ssss" },
  },
  signals: {
    ActionInvoked: { signature: "us" },
    NotificationClosed: { signature: "uu" },
  },
});

/** Owns the server's name on the session bus until `stop()`. */
export async function startNotificationServer() {
  const bus = dbus.sessionBus();
  const server = new Notifications();
  bus.export(PATH, server);
  const reply = await bus.requestName(NAME, dbus.NameFlag.DO_NOT_QUEUE);
  if (reply !== dbus.RequestNameReply.PRIMARY_OWNER) throw new Error(`another program owns ${NAME} (reply ${reply})`);
  return {
    received: server.received,
    /** Clicks notification `id` (its default action), as the desktop does. */
    click: (id) => server.ActionInvoked(id, "default"),
    stop: () => bus.disconnect(),
  };
}
