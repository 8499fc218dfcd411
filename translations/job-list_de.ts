<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Main</name>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>delayed</source>
        <translation>verzögert</translation>
    </message>
    <message>
        <source>held here</source>
        <translation>hier in Arbeit</translation>
    </message>
    <message>
        <source>held by %1</source>
        <translation>in Arbeit bei %1</translation>
    </message>
    <message>
        <source>orphaned</source>
        <translation>verwaist</translation>
    </message>
    <message>
        <source>dead letter</source>
        <translation>unzustellbar</translation>
    </message>
    <message>
        <source>Job list: %1</source>
        <translation>Auftragsliste: %1</translation>
    </message>
    <message>
        <source>Enqueued “%1”</source>
        <translation>„%1“ eingereiht</translation>
    </message>
    <message>
        <source>Not enqueued: %1</source>
        <translation>Nicht eingereiht: %1</translation>
    </message>
    <message>
        <source>Done: “%1”</source>
        <translation>Erledigt: „%1“</translation>
    </message>
    <message>
        <source>“%1” was lost before its ack: it runs again</source>
        <translation>„%1“ ging vor der Bestätigung verloren: es läuft noch einmal</translation>
    </message>
    <message>
        <source>Put back: “%1”</source>
        <translation>Zurückgelegt: „%1“</translation>
    </message>
    <message>
        <source>“%1” was lost before its requeue</source>
        <translation>„%1“ ging vor dem Zurücklegen verloren</translation>
    </message>
    <message>
        <source>Dead letter %1 is waiting again</source>
        <translation>Unzustellbarer Auftrag %1 wartet wieder</translation>
    </message>
    <message>
        <source>This window&apos;s lease ended: its jobs go to others</source>
        <translation>Die Lease dieses Fensters ist abgelaufen: seine Aufträge gehen an andere</translation>
    </message>
    <message>
        <source>Jobs in %1</source>
        <translation>Aufträge in %1</translation>
    </message>
    <message>
        <source>Connected to %1 as %2</source>
        <translation>Verbunden mit %1 als %2</translation>
    </message>
    <message>
        <source>Not connected, trying %1</source>
        <translation>Nicht verbunden, versuche %1</translation>
    </message>
    <message>
        <source>A new job (Enter enqueues it)</source>
        <translation>Ein neuer Auftrag (Eingabetaste reiht ihn ein)</translation>
    </message>
    <message>
        <source>Enqueue</source>
        <translation>Einreihen</translation>
    </message>
    <message>
        <source>Reading the queue…</source>
        <translation>Lese die Warteschlange…</translation>
    </message>
    <message>
        <source>%1 items; this window holds %2 of at most %3</source>
        <translation>%1 Einträge; dieses Fenster bearbeitet %2 von höchstens %3</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Auftrag</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>No jobs. Type one above and press Enter.</source>
        <translation>Keine Aufträge. Oben einen eingeben und die Eingabetaste drücken.</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Requeue dead letter</source>
        <translation>Unzustellbaren zurücklegen</translation>
    </message>
    <message>
        <source>Requeue</source>
        <translation>Zurücklegen</translation>
    </message>
    <message>
        <source>Take jobs</source>
        <translation>Aufträge annehmen</translation>
    </message>
    <message>
        <source>Error %1: %2</source>
        <translation>Fehler %1: %2</translation>
    </message>
    <message>
        <source>Ctrl+D: done · Ctrl+R: requeue · Ctrl+P: pause · Ctrl+N: new job · ↑↓: select</source>
        <translation>Strg+D: erledigt · Strg+R: zurücklegen · Strg+P: Pause · Strg+N: neuer Auftrag · ↑↓: auswählen</translation>
    </message>
</context>
</TS>
