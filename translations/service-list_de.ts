<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Main</name>
    <message>
        <source>Service list: %1 under %2</source>
        <translation>Dienstliste: %1 unter %2</translation>
    </message>
    <message>
        <source>Instances of “%1” under %2</source>
        <translation>Instanzen von „%1“ unter %2</translation>
    </message>
    <message>
        <source>Connected to %1</source>
        <translation>Verbunden mit %1</translation>
    </message>
    <message>
        <source>Not connected, trying %1</source>
        <translation>Nicht verbunden, versuche %1</translation>
    </message>
    <message>
        <source>Reading the instances…</source>
        <translation>Instanzen werden gelesen …</translation>
    </message>
    <message>
        <source>1 live instance</source>
        <translation>1 aktive Instanz</translation>
    </message>
    <message>
        <source>%1 live instances</source>
        <translation>%1 aktive Instanzen</translation>
    </message>
    <message>
        <source>Error %1: %2</source>
        <translation>Fehler %1: %2</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>Instanz</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Lease</translation>
    </message>
    <message>
        <source>%1 (this window)</source>
        <translation>%1 (dieses Fenster)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>No live instances. Press Ctrl+R to register this window.</source>
        <translation>Keine aktiven Instanzen. Strg+R meldet dieses Fenster an.</translation>
    </message>
    <message>
        <source>Unregister this window</source>
        <translation>Dieses Fenster abmelden</translation>
    </message>
    <message>
        <source>Register this window</source>
        <translation>Dieses Fenster anmelden</translation>
    </message>
    <message>
        <source>Registered as %1 at %2:%3, lease TTL %4 s</source>
        <translation>Angemeldet als %1 unter %2:%3, Lease-TTL %4 s</translation>
    </message>
    <message>
        <source>Registering…</source>
        <translation>Wird angemeldet …</translation>
    </message>
    <message>
        <source>Registration stopped: %1</source>
        <translation>Anmeldung beendet: %1</translation>
    </message>
    <message>
        <source>Ctrl+R: register · Ctrl+E: enabled · ↑↓: select · Tab: move focus</source>
        <translation>Strg+R: anmelden · Strg+E: aktiviert · ↑↓: auswählen · Tab: Fokus wechseln</translation>
    </message>
</context>
</TS>
