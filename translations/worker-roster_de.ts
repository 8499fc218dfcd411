<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Main</name>
    <message>
        <source>Worker roster: %1</source>
        <translation>Worker-Übersicht: %1</translation>
    </message>
    <message>
        <source>Workers under %1</source>
        <translation>Worker unter %1</translation>
    </message>
    <message>
        <source>Connected to %1</source>
        <translation>Verbunden mit %1</translation>
    </message>
    <message>
        <source>Reading the roster…</source>
        <translation>Lese die Worker …</translation>
    </message>
    <message>
        <source>1 live worker</source>
        <translation>1 aktiver Worker</translation>
    </message>
    <message>
        <source>%1 live workers</source>
        <translation>%1 aktive Worker</translation>
    </message>
    <message>
        <source>Error %1: %2</source>
        <translation>Fehler %1: %2</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Lease</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>No live workers. Press Ctrl+D to start a demo worker.</source>
        <translation>Keine aktiven Worker. Strg+D startet einen Demo-Worker.</translation>
    </message>
    <message>
        <source>Stop demo worker</source>
        <translation>Demo-Worker beenden</translation>
    </message>
    <message>
        <source>Start demo worker</source>
        <translation>Demo-Worker starten</translation>
    </message>
    <message>
        <source>%1 runs on a lease of %2 s</source>
        <translation>%1 läuft mit einer Lease von %2 s</translation>
    </message>
    <message>
        <source>Ctrl+D: start or stop a demo worker · ↑↓: select · Tab: move focus</source>
        <translation>Strg+D: Demo-Worker starten oder beenden · ↑↓: auswählen · Tab: Fokus wechseln</translation>
    </message>
    <message>
        <source>%1 (this window)</source>
        <translation>%1 (dieses Fenster)</translation>
    </message>
    <message>
        <source>Not connected, trying %1</source>
        <translation>Nicht verbunden, versuche %1</translation>
    </message>
    <message>
        <source>%1 is starting…</source>
        <translation>%1 startet …</translation>
    </message>
    <message>
        <source>The demo worker stopped: %1</source>
        <translation>Der Demo-Worker wurde beendet: %1</translation>
    </message>
</context>
</TS>
