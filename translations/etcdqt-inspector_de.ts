<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Etcd::Decode</name>
    <message>
        <source>%1 is not a leased &quot;&lt;clientId&gt;:&lt;7&gt;&quot; value: not read as the leader</source>
        <translation>%1 ist kein an eine Lease gebundener Wert „&lt;clientId&gt;:&lt;7&gt;“: nicht als Leader gelesen</translation>
    </message>
    <message>
        <source>%1 is not a participation key: not read as one</source>
        <translation>%1 ist kein Teilnahmeschlüssel: nicht als solcher gelesen</translation>
    </message>
    <message>
        <source>%1 is not an unleased 4-byte count of 1 or more: not read as the permits</source>
        <translation>%1 ist keine Lease-freie 4-Byte-Anzahl von mindestens 1: nicht als Platzanzahl gelesen</translation>
    </message>
    <message>
        <source>%1 is not a holder entry: not read as one</source>
        <translation>%1 ist kein Inhabereintrag: nicht als solcher gelesen</translation>
    </message>
    <message>
        <source>no readable permits key: which entries hold is unknown</source>
        <translation>kein lesbarer Schlüssel „permits“: unbekannt, welche Einträge einen Platz belegen</translation>
    </message>
    <message>
        <source>%1 is not an unleased &quot;&lt;clientId&gt;:&lt;7&gt;&quot;: not read as the round marker</source>
        <translation>%1 ist kein Lease-freies „&lt;clientId&gt;:&lt;7&gt;“: nicht als Rundenmarkierung gelesen</translation>
    </message>
    <message>
        <source>%1 is not a waiting member: not read as one</source>
        <translation>%1 ist kein wartendes Mitglied: nicht als solches gelesen</translation>
    </message>
    <message>
        <source>the expected member count is not stored in etcd</source>
        <translation>die erwartete Mitgliederzahl ist nicht in etcd gespeichert</translation>
    </message>
    <message>
        <source>one phase only: a counted barrier named .../enter or .../leave looks the same</source>
        <translation>nur eine Phase: eine zählende Barriere namens .../enter oder .../leave sieht genauso aus</translation>
    </message>
    <message>
        <source>%1 reads under its own write hold (a downgrade)</source>
        <translation>%1 liest unter der eigenen Schreibsperre (Herabstufung)</translation>
    </message>
    <message>
        <source>etcd&apos;s concurrency.Election layout: the earliest key leads; values are proclamations</source>
        <translation>Aufbau wie concurrency.Election von etcd: der älteste Schlüssel ist Leader; die Werte sind Proklamationen</translation>
    </message>
    <message>
        <source>etcd&apos;s concurrency.Mutex layout; a concurrency.Election with empty values looks the same</source>
        <translation>Aufbau wie concurrency.Mutex von etcd; eine concurrency.Election mit leeren Werten sieht genauso aus</translation>
    </message>
    <message>
        <source>a transient key holding a &quot;&lt;clientId&gt;:&lt;7&gt;&quot; value looks the same</source>
        <translation>ein flüchtiger Schlüssel mit einem Wert „&lt;clientId&gt;:&lt;7&gt;“ sieht genauso aus</translation>
    </message>
    <message>
        <source>an atomic counter, or a count-down latch (open at 0): the layouts are the same</source>
        <translation>ein atomarer Zähler oder ein Countdown-Latch (offen bei 0): der Aufbau ist derselbe</translation>
    </message>
    <message>
        <source>%1 holds the JSON of instance &quot;%2&quot;: its key&apos;s id counts</source>
        <translation>%1 enthält das JSON der Instanz „%2“: es gilt die ID des Schlüssels</translation>
    </message>
    <message>
        <source>%1 holds the JSON of service &quot;%2&quot;</source>
        <translation>%1 enthält das JSON des Dienstes „%2“</translation>
    </message>
    <message>
        <source>%1 is on no lease: it outlives whoever registered it</source>
        <translation>%1 hängt an keinem Lease: es überdauert, wer es registriert hat</translation>
    </message>
    <message>
        <source>%1 is on no lease: this claim never expires</source>
        <translation>%1 hängt an keinem Lease: diese Beanspruchung läuft nie ab</translation>
    </message>
    <message>
        <source>%1 is on a lease: not read as part of the work queue</source>
        <translation>%1 hängt an einem Lease: nicht als Teil der Arbeitswarteschlange gelesen</translation>
    </message>
    <message>
        <source>%1 is not a 4-byte count: not read as attempts</source>
        <translation>%1 ist keine 4-Byte-Anzahl: nicht als Zustellversuche gelesen</translation>
    </message>
    <message>
        <source>%1 claims an item that is not in claimed/</source>
        <translation>%1 beansprucht ein Element, das nicht in claimed/ liegt</translation>
    </message>
    <message>
        <source>only %1/ holds keys: a FIFO queue at %1 looks the same</source>
        <translation>nur %1/ enthält Schlüssel: eine FIFO-Warteschlange unter %1 sieht genauso aus</translation>
    </message>
    <message>
        <source>%1 is not an unleased empty value: not read as a priority marker</source>
        <translation>%1 ist kein Lease-freier leerer Wert: nicht als Prioritätsmarkierung gelesen</translation>
    </message>
    <message>
        <source>%1 is on a lease: not read as a queue item</source>
        <translation>%1 hängt an einem Lease: nicht als Warteschlangenelement gelesen</translation>
    </message>
</context>
<context>
    <name>Inspector::ChartsPage</name>
    <message>
        <source>New leaders per minute</source>
        <translation>Neue Leader pro Minute</translation>
    </message>
    <message>
        <source>Lock wait and hold, median (ms)</source>
        <translation>Warten auf und Halten von Sperren, Median (ms)</translation>
    </message>
    <message>
        <source>Watch events per second</source>
        <translation>Watch-Ereignisse pro Sekunde</translation>
    </message>
    <message>
        <source>Leases by granted TTL</source>
        <translation>Leases nach gewährter TTL</translation>
    </message>
    <message>
        <source>minutes ago</source>
        <translation>Minuten zuvor</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>warten</translation>
    </message>
    <message>
        <source>hold</source>
        <translation>halten</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>events/s</source>
        <translation>Ereignisse/s</translation>
    </message>
    <message>
        <source>seconds ago</source>
        <translation>Sekunden zuvor</translation>
    </message>
    <message>
        <source>leases</source>
        <translation>Leases</translation>
    </message>
    <message>
        <source>?</source>
        <comment>granted TTL not known yet</comment>
        <translation>?</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>more</source>
        <translation>mehr</translation>
    </message>
    <message>
        <source>granted TTL, up to</source>
        <translation>gewährte TTL, bis</translation>
    </message>
</context>
<context>
    <name>Inspector::ClusterModel</name>
    <message>
        <source>learner</source>
        <translation>Learner</translation>
    </message>
    <message>
        <source>leader</source>
        <translation>Leader</translation>
    </message>
    <message>
        <source>follower</source>
        <translation>Follower</translation>
    </message>
    <message>
        <source>%1, connected</source>
        <translation>%1, verbunden</translation>
    </message>
    <message>
        <source>(not started)</source>
        <translation>(nicht gestartet)</translation>
    </message>
    <message>
        <source>Member</source>
        <translation>Mitglied</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>DB size</source>
        <translation>DB-Größe</translation>
    </message>
    <message>
        <source>Raft index</source>
        <translation>Raft-Index</translation>
    </message>
    <message>
        <source>Raft term</source>
        <translation>Raft-Term</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Alarms</source>
        <translation>Alarme</translation>
    </message>
    <message>
        <source>Client URLs</source>
        <translation>Client-URLs</translation>
    </message>
    <message>
        <source>Peer URLs</source>
        <translation>Peer-URLs</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>Inspector::ClusterPoller</name>
    <message>
        <source>asking…</source>
        <translation>wird abgefragt…</translation>
    </message>
    <message>
        <source>healthy</source>
        <translation>gesund</translation>
    </message>
    <message>
        <source>no leader</source>
        <translation>kein Leader</translation>
    </message>
    <message>
        <source>alarm</source>
        <translation>Alarm</translation>
    </message>
    <message>
        <source>down</source>
        <translation>nicht erreichbar</translation>
    </message>
</context>
<context>
    <name>Inspector::ConnectDialog</name>
    <message>
        <source>Connect to etcd</source>
        <translation>Mit etcd verbinden</translation>
    </message>
    <message>
        <source>(new profile)</source>
        <translation>(neues Profil)</translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>wird nicht gespeichert</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Endpoints:</source>
        <translation>&amp;Endpunkte:</translation>
    </message>
    <message>
        <source>P&amp;refix:</source>
        <translation>Prä&amp;fix:</translation>
    </message>
    <message>
        <source>&amp;CA certificate:</source>
        <translation>&amp;CA-Zertifikat:</translation>
    </message>
    <message>
        <source>Client cer&amp;tificate:</source>
        <translation>Client-&amp;Zertifikat:</translation>
    </message>
    <message>
        <source>Client &amp;key:</source>
        <translation>Client-Sch&amp;lüssel:</translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation>&amp;Benutzer:</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>Pass&amp;wort:</translation>
    </message>
    <message>
        <source>C&amp;onnect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>&amp;Save profile</source>
        <translation>Profil &amp;speichern</translation>
    </message>
    <message>
        <source>Give the profile a name to save it.</source>
        <translation>Geben Sie dem Profil einen Namen, um es zu speichern.</translation>
    </message>
    <message>
        <source>Profile &quot;%1&quot; saved (without the password).</source>
        <translation>Profil „%1“ gespeichert (ohne Passwort).</translation>
    </message>
</context>
<context>
    <name>Inspector::EventLogModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Rev.-Nr.</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>Rezept</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Beschreibung</translation>
    </message>
</context>
<context>
    <name>Inspector::InspectorSession</name>
    <message>
        <source>No endpoint given.</source>
        <translation>Kein Endpunkt angegeben.</translation>
    </message>
    <message>
        <source>Endpoint &quot;%1&quot; is not of the form http(s)://host:port.</source>
        <translation>Endpunkt „%1“ hat nicht die Form http(s)://host:port.</translation>
    </message>
    <message>
        <source>The prefix must not be empty (use / for every key).</source>
        <translation>Das Präfix darf nicht leer sein (/ steht für alle Schlüssel).</translation>
    </message>
    <message>
        <source>TLS file &quot;%1&quot; cannot be read.</source>
        <translation>TLS-Datei „%1“ kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>A client certificate needs its key, and a key its certificate.</source>
        <translation>Ein Client-Zertifikat braucht seinen Schlüssel und ein Schlüssel sein Zertifikat.</translation>
    </message>
    <message>
        <source>The update interval must not be negative.</source>
        <translation>Das Aktualisierungsintervall darf nicht negativ sein.</translation>
    </message>
    <message>
        <source>lease %1</source>
        <translation>Lease %1</translation>
    </message>
    <message>
        <source>lease %1: %2</source>
        <translation>Lease %1: %2</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>Nicht verbunden</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird aufgebaut…</translation>
    </message>
    <message>
        <source>Loading keys…</source>
        <translation>Schlüssel werden geladen…</translation>
    </message>
    <message>
        <source>Live at revision %1</source>
        <translation>Live bei Revision %1</translation>
    </message>
    <message>
        <source>Resynchronising…</source>
        <translation>Neusynchronisierung…</translation>
    </message>
    <message>
        <source>Failed; retrying</source>
        <translation>Fehlgeschlagen; neuer Versuch folgt</translation>
    </message>
    <message>
        <source>Reading %1 failed: %2</source>
        <translation>Lesen von %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>The watch on %1 ended: %2</source>
        <translation>Die Überwachung (Watch) von %1 wurde beendet: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 is flapping: %n new leader(s) in 15 minutes</source>
        <translation>
            <numerusform>%1 ist instabil (Flattern): %n neuer Leader in 15 Minuten</numerusform>
            <numerusform>%1 ist instabil (Flattern): %n neue Leader in 15 Minuten</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Inspector::LaunchOptions</name>
    <message>
        <source>etcd endpoints, comma-separated (http://127.0.0.1:2379).</source>
        <translation>etcd-Endpunkte, durch Kommas getrennt (http://127.0.0.1:2379).</translation>
    </message>
    <message>
        <source>CA certificate file (PEM).</source>
        <translation>CA-Zertifikatsdatei (PEM).</translation>
    </message>
    <message>
        <source>Client certificate file (PEM).</source>
        <translation>Client-Zertifikatsdatei (PEM).</translation>
    </message>
    <message>
        <source>Client key file (PEM).</source>
        <translation>Client-Schlüsseldatei (PEM).</translation>
    </message>
    <message>
        <source>User name; the password is read from ETCDQT_PASSWORD or asked for.</source>
        <translation>Benutzername; das Passwort wird aus ETCDQT_PASSWORD gelesen oder abgefragt.</translation>
    </message>
    <message>
        <source>Key prefix to inspect (default /).</source>
        <translation>Zu untersuchendes Schlüsselpräfix (Standard: /).</translation>
    </message>
    <message>
        <source>true (default) or false: false enables revoke, step-down, release and lift.</source>
        <translation>true (Standard) oder false: false aktiviert Widerrufen, Rücktritt, Freigeben und Aufheben.</translation>
    </message>
    <message>
        <source>Saved connection profile.</source>
        <translation>Gespeichertes Verbindungsprofil.</translation>
    </message>
    <message>
        <source>Start a private etcd with a demo workload and inspect it.</source>
        <translation>Ein privates etcd mit Demo-Arbeitslast starten und untersuchen.</translation>
    </message>
    <message>
        <source>User interface language: en, de or fr (default: the system&apos;s).</source>
        <translation>Sprache der Benutzeroberfläche: en, de oder fr (Standard: die des Systems).</translation>
    </message>
    <message>
        <source>light or dark.</source>
        <translation>light oder dark.</translation>
    </message>
    <message>
        <source>Save a PNG of every view to this directory once the data is loaded, then quit.</source>
        <translation>Nach dem Laden der Daten jede Ansicht als PNG in diesem Verzeichnis speichern, dann beenden.</translation>
    </message>
    <message>
        <source>A recipe-aware live view of an etcd cluster.</source>
        <translation>Eine Live-Ansicht eines etcd-Clusters, die Rezepte erkennt.</translation>
    </message>
    <message>
        <source>Unexpected argument: %1</source>
        <translation>Unerwartetes Argument: %1</translation>
    </message>
    <message>
        <source>--read-only takes true or false.</source>
        <translation>--read-only erwartet true oder false.</translation>
    </message>
    <message>
        <source>--theme takes light or dark.</source>
        <translation>--theme erwartet light oder dark.</translation>
    </message>
    <message>
        <source>--sandbox starts its own etcd: it cannot be combined with --endpoints.</source>
        <translation>--sandbox startet ein eigenes etcd und lässt sich nicht mit --endpoints kombinieren.</translation>
    </message>
    <message>
        <source>--profile cannot be combined with --endpoints or --sandbox.</source>
        <translation>--profile lässt sich nicht mit --endpoints oder --sandbox kombinieren.</translation>
    </message>
    <message>
        <source>No saved profile is called &quot;%1&quot;.</source>
        <translation>Kein gespeichertes Profil heißt „%1“.</translation>
    </message>
</context>
<context>
    <name>Inspector::LeaseClock</name>
    <message>
        <source>TTL above its grant</source>
        <translation>TTL über der gewährten Dauer</translation>
    </message>
    <message>
        <source>negative TTL</source>
        <translation>negative TTL</translation>
    </message>
    <message>
        <source>key present, lease gone</source>
        <translation>Schlüssel vorhanden, Lease verschwunden</translation>
    </message>
    <message>
        <source>TTL jumped up after going unrenewed</source>
        <translation>TTL sprang hoch, obwohl zuvor nicht verlängert</translation>
    </message>
</context>
<context>
    <name>Inspector::LeaseModel</name>
    <message>
        <source>?</source>
        <comment>grant not known yet</comment>
        <translation>?</translation>
    </message>
    <message numerus="yes">
        <source>Lease %1: %n key(s)</source>
        <translation>
            <numerusform>Lease %1: %n Schlüssel</numerusform>
            <numerusform>Lease %1: %n Schlüssel</numerusform>
        </translation>
    </message>
    <message>
        <source>(raw key)</source>
        <translation>(Rohschlüssel)</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>recipe kind, role of the key</comment>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>Lease / key</source>
        <translation>Lease / Schlüssel</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Granted</source>
        <translation>Gewährt</translation>
    </message>
    <message>
        <source>Keys / recipe</source>
        <translation>Schlüssel / Rezept</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>Anomalien</translation>
    </message>
</context>
<context>
    <name>Inspector::LogPage</name>
    <message>
        <source>Show h&amp;istory</source>
        <translation>&amp;Verlauf anzeigen</translation>
    </message>
    <message>
        <source>F&amp;ollow</source>
        <translation>Automatisch &amp;scrollen</translation>
    </message>
    <message>
        <source>All events</source>
        <translation>Alle Ereignisse</translation>
    </message>
    <message>
        <source>Leadership</source>
        <translation>Wahlen und Leader</translation>
    </message>
    <message>
        <source>Locks and semaphores</source>
        <translation>Sperren und Semaphore</translation>
    </message>
    <message>
        <source>Barriers</source>
        <translation>Barrieren</translation>
    </message>
    <message>
        <source>Counters and latches</source>
        <translation>Zähler und Latches</translation>
    </message>
    <message>
        <source>Transient keys</source>
        <translation>Flüchtige Schlüssel</translation>
    </message>
    <message>
        <source>Anomalies and alerts</source>
        <translation>Anomalien und Warnungen</translation>
    </message>
    <message>
        <source>Which kind of event to show</source>
        <translation>Art der angezeigten Ereignisse</translation>
    </message>
    <message>
        <source>Services</source>
        <translation>Dienste</translation>
    </message>
</context>
<context>
    <name>Inspector::MainWindow</name>
    <message>
        <source>etcdqt inspector</source>
        <translation>etcdqt inspector</translation>
    </message>
    <message>
        <source>&amp;Recipes</source>
        <translation>&amp;Rezepte</translation>
    </message>
    <message>
        <source>&amp;Leases</source>
        <translation>&amp;Leases</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Zeitleiste</translation>
    </message>
    <message>
        <source>&amp;Event log</source>
        <translation>&amp;Ereignisprotokoll</translation>
    </message>
    <message>
        <source>Ra&amp;w keys</source>
        <translation>R&amp;ohschlüssel</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>&amp;Verbinden…</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>&amp;Neu laden</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>&amp;Suchen</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>&amp;Dunkles Design</translation>
    </message>
    <message>
        <source>&amp;Actions</source>
        <translation>A&amp;ktionen</translation>
    </message>
    <message>
        <source>Force &amp;step-down…</source>
        <translation>&amp;Rücktritt erzwingen…</translation>
    </message>
    <message>
        <source>&amp;Release lock…</source>
        <translation>&amp;Sperre freigeben…</translation>
    </message>
    <message>
        <source>&amp;Lift barrier…</source>
        <translation>&amp;Barriere aufheben…</translation>
    </message>
    <message>
        <source>Re&amp;voke lease…</source>
        <translation>Lease &amp;widerrufen…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Nur lesen</translation>
    </message>
    <message>
        <source>Writes enabled</source>
        <translation>Schreiben aktiviert</translation>
    </message>
    <message>
        <source>Actions are off. Start with --read-only=false to enable them.</source>
        <translation>Aktionen sind deaktiviert. Zum Aktivieren mit --read-only=false starten.</translation>
    </message>
    <message>
        <source>Revoke, step-down, release and lift are enabled; each asks first.</source>
        <translation>Widerrufen, Rücktritt, Freigeben und Aufheben sind aktiviert; jede Aktion fragt vorher nach.</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>Verbunden</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Verbindungsaufbau</translation>
    </message>
    <message>
        <source>Reconnecting</source>
        <translation>Neuverbindung</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>Getrennt</translation>
    </message>
    <message numerus="yes">
        <source>%n recipe(s)</source>
        <translation>
            <numerusform>%n Rezept</numerusform>
            <numerusform>%n Rezepte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lease(s)</source>
        <translation>
            <numerusform>%n Lease</numerusform>
            <numerusform>%n Leases</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n raw key(s)</source>
        <translation>
            <numerusform>%n Rohschlüssel</numerusform>
            <numerusform>%n Rohschlüssel</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 — etcdqt inspector</source>
        <translation>%1 %2 — etcdqt inspector</translation>
    </message>
    <message>
        <source>Sandbox: private etcd at %1</source>
        <translation>Sandbox: privates etcd unter %1</translation>
    </message>
    <message>
        <source>Sandbox failed: %1</source>
        <translation>Sandbox fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>Starting the sandbox: a private etcd and its workload…</source>
        <translation>Sandbox wird gestartet: ein privates etcd mit seiner Arbeitslast…</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Read-only: start with --read-only=false to enable this.</source>
        <translation>Nur lesen: zum Aktivieren mit --read-only=false starten.</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Wer</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Lease</translation>
    </message>
    <message>
        <source>Read-only session: actions are off.</source>
        <translation>Nur-Lese-Sitzung: Aktionen sind deaktiviert.</translation>
    </message>
    <message>
        <source>Actions: see the Actions menu.</source>
        <translation>Aktionen: siehe Menü „Aktionen“.</translation>
    </message>
    <message>
        <source>Read-only: start with --read-only=false to act.</source>
        <translation>Nur lesen: für Aktionen mit --read-only=false starten.</translation>
    </message>
    <message>
        <source>This will end:</source>
        <translation>Dadurch endet Folgendes:</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>„%1“ fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>%1 refused: the holder you saw is already gone (token %2).</source>
        <translation>„%1“ abgelehnt: Der angezeigte Inhaber ist bereits weg (Token %2).</translation>
    </message>
    <message>
        <source>%1 done.</source>
        <translation>„%1“ ausgeführt.</translation>
    </message>
    <message>
        <source>operator</source>
        <translation>Bediener</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more key(s)</source>
        <translation>
            <numerusform>… und %n weiterer Schlüssel</numerusform>
            <numerusform>… und %n weitere Schlüssel</numerusform>
        </translation>
    </message>
    <message>
        <source>Cl&amp;uster</source>
        <translation>Cl&amp;uster</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>Ü&amp;bersicht</translation>
    </message>
    <message>
        <source>&amp;Charts</source>
        <translation>Dia&amp;gramme</translation>
    </message>
    <message>
        <source>Under %1 (shown as …/)</source>
        <translation>Unter %1 (als …/ gezeigt)</translation>
    </message>
</context>
<context>
    <name>Inspector::Overview</name>
    <message>
        <source>in</source>
        <translation>ein</translation>
    </message>
    <message>
        <source>out</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>term %1</source>
        <translation>Amtszeit %1</translation>
    </message>
    <message>
        <source>token %1</source>
        <translation>Token %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n permit(s) held</source>
        <translation>
            <numerusform>%1 von %n Genehmigung belegt</numerusform>
            <numerusform>%1 von %n Genehmigungen belegt</numerusform>
        </translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>arrived</source>
        <translation>angekommen</translation>
    </message>
</context>
<context>
    <name>Inspector::OverviewPage</name>
    <message>
        <source>No recipes under this prefix yet.</source>
        <translation>Noch keine Rezepte unter diesem Präfix.</translation>
    </message>
    <message numerus="yes">
        <source>%n recipe(s)</source>
        <translation>
            <numerusform>%n Rezept</numerusform>
            <numerusform>%n Rezepte</numerusform>
        </translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>+%1 weitere</translation>
    </message>
</context>
<context>
    <name>Inspector::Pages</name>
    <message>
        <source>Filter (%1)</source>
        <translation>Filtern (%1)</translation>
    </message>
</context>
<context>
    <name>Inspector::RawKeyModel</name>
    <message>
        <source>Key: %1
Value: %2</source>
        <translation>Schlüssel: %1
Wert: %2</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Create rev</source>
        <translation>Erst.-Rev.</translation>
    </message>
    <message>
        <source>Mod rev</source>
        <translation>Änd.-Rev.</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Lease</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipeActions</name>
    <message>
        <source>%1 stops leading %2 (term token %3)</source>
        <translation>%1 ist nicht mehr Leader von %2 (Amtszeit-Token %3)</translation>
    </message>
    <message>
        <source>%1 leaves the election %2</source>
        <translation>%1 scheidet aus der Wahl %2 aus</translation>
    </message>
    <message>
        <source>%1 loses %2 (fencing token %3)</source>
        <translation>%1 verliert %2 (Fencing-Token %3)</translation>
    </message>
    <message>
        <source>%1 leaves the queue of %2</source>
        <translation>%1 verlässt die Warteschlange von %2</translation>
    </message>
    <message>
        <source>barrier %1 lifts: its waiters pass</source>
        <translation>Barriere %1 wird aufgehoben: die Wartenden laufen weiter</translation>
    </message>
    <message>
        <source>%1 leaves %2</source>
        <translation>%1 verlässt %2</translation>
    </message>
    <message>
        <source>key %1 is deleted</source>
        <translation>Schlüssel %1 wird gelöscht</translation>
    </message>
    <message>
        <source>%1, first in the queue, may acquire it next</source>
        <translation>%1 ist als Nächster in der Warteschlange und kann übernehmen</translation>
    </message>
    <message>
        <source>%1 %2?</source>
        <translation>%1: %2?</translation>
    </message>
    <message>
        <source>Nothing in view holds it any more: it has already ended.</source>
        <translation>In der Ansicht hält es niemand mehr: Es ist bereits beendet.</translation>
    </message>
    <message numerus="yes">
        <source>Lease %1 and every key on it (%n key(s)) are removed.</source>
        <translation>
            <numerusform>Lease %1 und der daran gebundene Schlüssel (%n Schlüssel) werden entfernt.</numerusform>
            <numerusform>Lease %1 und alle daran gebundenen Schlüssel (%n Schlüssel) werden entfernt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Revoke lease</source>
        <translation>Lease widerrufen</translation>
    </message>
    <message>
        <source>Force step-down</source>
        <translation>Rücktritt erzwingen</translation>
    </message>
    <message>
        <source>Release lock</source>
        <translation>Sperre freigeben</translation>
    </message>
    <message>
        <source>Lift barrier</source>
        <translation>Barriere aufheben</translation>
    </message>
    <message>
        <source>%1 leaves service %2: clients stop choosing it</source>
        <translation>%1 verlässt den Dienst %2: Clients wählen es nicht mehr</translation>
    </message>
    <message>
        <source>%1 loses its claim on item %2 of %3: the next consumer reclaims it</source>
        <translation>%1 verliert die Beanspruchung von Element %2 in %3: der nächste Verbraucher holt es zurück</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipeEvent</name>
    <message>
        <source>leader elected</source>
        <translation>Leader gewählt</translation>
    </message>
    <message>
        <source>leader lost</source>
        <translation>Leader verloren</translation>
    </message>
    <message>
        <source>candidate joined</source>
        <translation>neuer Kandidat</translation>
    </message>
    <message>
        <source>candidate left</source>
        <translation>Kandidat weg</translation>
    </message>
    <message>
        <source>acquired</source>
        <translation>erhalten</translation>
    </message>
    <message>
        <source>released</source>
        <translation>freigegeben</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>eingereiht</translation>
    </message>
    <message>
        <source>barrier set</source>
        <translation>Barriere gesetzt</translation>
    </message>
    <message>
        <source>barrier lifted</source>
        <translation>Barriere entfernt</translation>
    </message>
    <message>
        <source>member arrived</source>
        <translation>neues Mitglied</translation>
    </message>
    <message>
        <source>barrier tripped</source>
        <translation>Barriere ausgelöst</translation>
    </message>
    <message>
        <source>count changed</source>
        <translation>Zähler geändert</translation>
    </message>
    <message>
        <source>key appeared</source>
        <translation>neuer Schlüssel</translation>
    </message>
    <message>
        <source>key vanished</source>
        <translation>Schlüssel weg</translation>
    </message>
    <message>
        <source>anomaly</source>
        <translation>Anomalie</translation>
    </message>
    <message>
        <source>flapping</source>
        <translation>instabil (Flattern)</translation>
    </message>
    <message>
        <source>connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>instance registered</source>
        <translation>Instanz registriert</translation>
    </message>
    <message>
        <source>instance updated</source>
        <translation>Instanz aktualisiert</translation>
    </message>
    <message>
        <source>instance gone</source>
        <translation>Instanz verschwunden</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipeModel</name>
    <message>
        <source>%1 (%2)</source>
        <comment>recipe path (kind)</comment>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Key: %1
Value: %2</source>
        <translation>Schlüssel: %1
Wert: %2</translation>
    </message>
    <message>
        <source>Recipe / role</source>
        <translation>Rezept / Rolle</translation>
    </message>
    <message>
        <source>Owner / summary</source>
        <translation>Besitzer / Übersicht</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Lease</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Hinweise</translation>
    </message>
    <message>
        <source>Key: %1
Endpoint: %2
URI: %3
Enabled: %4
Registered: %5
Payload: %6</source>
        <translation>Schlüssel: %1
Endpunkt: %2
URI: %3
Aktiviert: %4
Registriert: %5
Nutzdaten: %6</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipeText</name>
    <message>
        <source>election</source>
        <translation>Wahl</translation>
    </message>
    <message>
        <source>mutex</source>
        <translation>Mutex</translation>
    </message>
    <message>
        <source>read-write lock</source>
        <translation>Lese-Schreib-Sperre</translation>
    </message>
    <message>
        <source>semaphore</source>
        <translation>Semaphor</translation>
    </message>
    <message>
        <source>barrier</source>
        <translation>Barriere</translation>
    </message>
    <message>
        <source>counted barrier</source>
        <translation>zählende Barriere</translation>
    </message>
    <message>
        <source>double barrier</source>
        <translation>Doppelbarriere</translation>
    </message>
    <message>
        <source>counter or latch</source>
        <translation>Zähler oder Latch</translation>
    </message>
    <message>
        <source>transient key</source>
        <translation>flüchtiger Schlüssel</translation>
    </message>
    <message>
        <source>leader</source>
        <translation>Leader</translation>
    </message>
    <message>
        <source>candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <source>holder</source>
        <translation>Inhaber</translation>
    </message>
    <message>
        <source>waiter</source>
        <translation>Wartender</translation>
    </message>
    <message>
        <source>holder or waiter</source>
        <translation>Inhaber oder Wartender</translation>
    </message>
    <message>
        <source>ready marker</source>
        <translation>Bereit-Markierung</translation>
    </message>
    <message>
        <source>member</source>
        <translation>Mitglied</translation>
    </message>
    <message>
        <source>setter</source>
        <translation>Urheber</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>%1 (read)</source>
        <comment>role, read side of a read-write lock</comment>
        <translation>%1 (Lesen)</translation>
    </message>
    <message>
        <source>%1 (write)</source>
        <comment>role, write side of a read-write lock</comment>
        <translation>%1 (Schreiben)</translation>
    </message>
    <message>
        <source>%1 (enter)</source>
        <comment>role, entry phase of a double barrier</comment>
        <translation>%1 (Eintritt)</translation>
    </message>
    <message>
        <source>%1 (leave)</source>
        <comment>role, exit phase of a double barrier</comment>
        <translation>%1 (Austritt)</translation>
    </message>
    <message>
        <source>lease %1</source>
        <translation>Lease %1</translation>
    </message>
    <message numerus="yes">
        <source>leader %1 since revision %2 (%n candidate(s))</source>
        <translation>
            <numerusform>Leader %1 seit Revision %2 (%n Kandidat)</numerusform>
            <numerusform>Leader %1 seit Revision %2 (%n Kandidaten)</numerusform>
        </translation>
    </message>
    <message>
        <source>no leader</source>
        <translation>kein Leader</translation>
    </message>
    <message numerus="yes">
        <source>held by %1, %n waiting</source>
        <translation>
            <numerusform>belegt von %1, %n wartet</numerusform>
            <numerusform>belegt von %1, %n warten</numerusform>
        </translation>
    </message>
    <message>
        <source>free</source>
        <translation>frei</translation>
    </message>
    <message numerus="yes">
        <source>permits unknown, %n entries</source>
        <translation>
            <numerusform>Plätze unbekannt, %n Eintrag</numerusform>
            <numerusform>Plätze unbekannt, %n Einträge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 permits used, %n waiting</source>
        <translation>
            <numerusform>%1 von %2 Plätzen belegt, %n wartet</numerusform>
            <numerusform>%1 von %2 Plätzen belegt, %n warten</numerusform>
        </translation>
    </message>
    <message>
        <source>set by %1</source>
        <translation>gesetzt von %1</translation>
    </message>
    <message>
        <source>lifted</source>
        <translation>aufgehoben</translation>
    </message>
    <message numerus="yes">
        <source>%n member(s) arrived, tripped</source>
        <translation>
            <numerusform>%n Mitglied eingetroffen, ausgelöst</numerusform>
            <numerusform>%n Mitglieder eingetroffen, ausgelöst</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n member(s) arrived</source>
        <translation>
            <numerusform>%n Mitglied eingetroffen</numerusform>
            <numerusform>%n Mitglieder eingetroffen</numerusform>
        </translation>
    </message>
    <message>
        <source>value %1</source>
        <translation>Wert %1</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>kein Wert</translation>
    </message>
    <message>
        <source>?</source>
        <comment>TTL not known yet</comment>
        <translation>?</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <comment>seconds</comment>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message>
        <source>due</source>
        <comment>TTL countdown ran out; etcd is asked again</comment>
        <translation>fällig</translation>
    </message>
    <message>
        <source>service</source>
        <translation>Dienst</translation>
    </message>
    <message>
        <source>instance</source>
        <translation>Instanz</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <comment>service instance id at address:port</comment>
        <translation>%1 unter %2</translation>
    </message>
    <message>
        <source>%1 (disabled)</source>
        <comment>a disabled service instance</comment>
        <translation>%1 (deaktiviert)</translation>
    </message>
    <message>
        <source>no instances</source>
        <translation>keine Instanzen</translation>
    </message>
    <message numerus="yes">
        <source>%n instance(s): %1</source>
        <translation>
            <numerusform>%n Instanz: %1</numerusform>
            <numerusform>%n Instanzen: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>priority queue</source>
        <translation>Prioritätswarteschlange</translation>
    </message>
    <message>
        <source>work queue</source>
        <translation>Arbeitswarteschlange</translation>
    </message>
    <message>
        <source>item</source>
        <translation>Element</translation>
    </message>
    <message>
        <source>level marker</source>
        <comment>priority queue: the marker key of one priority level</comment>
        <translation>Stufenmarkierung</translation>
    </message>
    <message>
        <source>in flight</source>
        <comment>work queue: an item a consumer has claimed</comment>
        <translation>in Bearbeitung</translation>
    </message>
    <message>
        <source>claim</source>
        <comment>work queue: the consumer&apos;s leased claim key</comment>
        <translation>Beanspruchung</translation>
    </message>
    <message>
        <source>attempt count</source>
        <translation>Versuchszähler</translation>
    </message>
    <message>
        <source>dead letter</source>
        <translation>unzustellbar</translation>
    </message>
    <message>
        <source>delayed</source>
        <translation>verzögert</translation>
    </message>
    <message>
        <source>%1 (priority %2)</source>
        <comment>role (priority level)</comment>
        <translation>%1 (Priorität %2)</translation>
    </message>
    <message>
        <source>orphaned: reclaimable</source>
        <translation>verwaist: zurückholbar</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n Versuch</numerusform>
            <numerusform>%n Versuche</numerusform>
        </translation>
    </message>
    <message>
        <source>level %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>p%1: %2</source>
        <comment>priority level: items waiting</comment>
        <translation>P%1: %2</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>leer</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s); head %1</source>
        <translation>
            <numerusform>%n Element; vorne %1</numerusform>
            <numerusform>%n Elemente; vorne %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s); head %1, enqueued %2 ago</source>
        <translation>
            <numerusform>%n Element; vorne %1, eingereiht vor %2</numerusform>
            <numerusform>%n Elemente; vorne %1, eingereiht vor %2</numerusform>
        </translation>
    </message>
    <message>
        <source>empty (%1)</source>
        <comment>priority queue: no items; per-level counts</comment>
        <translation>leer (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) (%1); next %2 at priority %3</source>
        <translation>
            <numerusform>%n Element (%1); als Nächstes %2 mit Priorität %3</numerusform>
            <numerusform>%n Elemente (%1); als Nächstes %2 mit Priorität %3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 pending, %2 in flight, %3 dead, %4 delayed</source>
        <translation>%1 wartend, %2 in Bearbeitung, %3 unzustellbar, %4 verzögert</translation>
    </message>
    <message numerus="yes">
        <source>, %n orphaned: reclaimable</source>
        <translation>
            <numerusform>, %n verwaist: zurückholbar</numerusform>
            <numerusform>, %n verwaist: zurückholbar</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (priority %2, sequence %3)</source>
        <translation>%1 (Priorität %2, Folge %3)</translation>
    </message>
    <message>
        <source>%1 (%2), enqueued %3, %4 ago</source>
        <translation>%1 (%2), eingereiht %3, vor %4</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weiteres</numerusform>
            <numerusform>… und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>In flight: %1</source>
        <translation>In Bearbeitung: %1</translation>
    </message>
    <message>
        <source>%1: orphaned: reclaimable (attempt %2, no claim: its consumer&apos;s lease ended)</source>
        <translation>%1: verwaist: zurückholbar (Versuch %2, keine Beanspruchung: das Lease des Verbrauchers ist abgelaufen)</translation>
    </message>
    <message>
        <source>%1: consumer %2, attempt %3, lease %4, TTL %5</source>
        <translation>%1: Verbraucher %2, Versuch %3, Lease %4, TTL %5</translation>
    </message>
    <message>
        <source>Dead letters: %1</source>
        <translation>Unzustellbar: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n attempt(s), %2</source>
        <translation>
            <numerusform>%1: %n Versuch, %2</numerusform>
            <numerusform>%1: %n Versuche, %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Delayed: %1</source>
        <translation>Verzögert: %1</translation>
    </message>
    <message>
        <source>%1: due %2 (%3), %4</source>
        <translation>%1: fällig %2 (%3), %4</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>%1 overdue</source>
        <translation>%1 überfällig</translation>
    </message>
    <message numerus="yes">
        <source>Pending: %n item(s)</source>
        <translation>
            <numerusform>Wartend: %n Element</numerusform>
            <numerusform>Wartend: %n Elemente</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Depth: %n item(s)</source>
        <translation>
            <numerusform>Tiefe: %n Element</numerusform>
            <numerusform>Tiefe: %n Elemente</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Priority %1: %n item(s)</source>
        <translation>
            <numerusform>Priorität %1: %n Element</numerusform>
            <numerusform>Priorität %1: %n Elemente</numerusform>
        </translation>
    </message>
    <message>
        <source> (its marker key was not read)</source>
        <translation> (ihr Markierungsschlüssel wurde nicht gelesen)</translation>
    </message>
    <message>
        <source>Next: %1</source>
        <translation>Als Nächstes: %1</translation>
    </message>
    <message>
        <source>Head: %1</source>
        <translation>Vorne: %1</translation>
    </message>
    <message>
        <source>Nothing waits to be taken.</source>
        <translation>Nichts wartet auf Abholung.</translation>
    </message>
    <message>
        <source>enqueued %1 ago</source>
        <translation>eingereiht vor %1</translation>
    </message>
    <message numerus="yes">
        <source>delivered %n time(s) before</source>
        <translation>
            <numerusform>schon %n-mal zugestellt</numerusform>
            <numerusform>schon %n-mal zugestellt</numerusform>
        </translation>
    </message>
    <message>
        <source>orphaned: reclaimable (attempt %1)</source>
        <translation>verwaist: zurückholbar (Versuch %1)</translation>
    </message>
    <message>
        <source>attempt %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message numerus="yes">
        <source>dead after %n attempt(s)</source>
        <translation>
            <numerusform>unzustellbar nach %n Versuch</numerusform>
            <numerusform>unzustellbar nach %n Versuchen</numerusform>
        </translation>
    </message>
    <message>
        <source>due in %1</source>
        <translation>fällig in %1</translation>
    </message>
    <message>
        <source>due %1 ago, not yet promoted</source>
        <translation>seit %1 fällig, noch nicht übernommen</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 T %2 h</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipesPage</name>
    <message>
        <source>Select a recipe to see who holds it and what it would take to end that.</source>
        <translation>Wählen Sie ein Rezept, um zu sehen, wer es hält und was nötig wäre, um das zu beenden.</translation>
    </message>
</context>
<context>
    <name>Inspector::Sandbox</name>
    <message>
        <source>Could not create a temporary directory for the sandbox: %1</source>
        <translation>Temporäres Verzeichnis für die Sandbox konnte nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>No free port on 127.0.0.1 for etcd.</source>
        <translation>Kein freier Port auf 127.0.0.1 für etcd.</translation>
    </message>
    <message>
        <source>etcd (%1) could not be started: %2</source>
        <translation>etcd (%1) konnte nicht gestartet werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>etcd was not ready within %n second(s). Its last output:
%1</source>
        <translation>
            <numerusform>etcd war nicht innerhalb von %n Sekunde bereit. Letzte Ausgabe:
%1</numerusform>
            <numerusform>etcd war nicht innerhalb von %n Sekunden bereit. Letzte Ausgabe:
%1</numerusform>
        </translation>
    </message>
    <message>
        <source>etcd exited unexpectedly (exit status %1); the sandbox has stopped. Its last output:
%2</source>
        <translation>etcd wurde unerwartet beendet (Exit-Status %1); die Sandbox ist angehalten. Letzte Ausgabe:
%2</translation>
    </message>
    <message>
        <source>etcd exited before it was ready (exit status %1). Its last output:
%2</source>
        <translation>etcd wurde beendet, bevor es bereit war (Exit-Status %1). Letzte Ausgabe:
%2</translation>
    </message>
    <message>
        <source>etcd: running (pid %1) at %2</source>
        <translation>etcd: läuft (PID %1) unter %2</translation>
    </message>
    <message>
        <source>etcd: not running</source>
        <translation>etcd: läuft nicht</translation>
    </message>
    <message>
        <source>ETCDQT_CLI is set to %1, which is not an executable file.</source>
        <translation>ETCDQT_CLI ist auf %1 gesetzt, das ist aber keine ausführbare Datei.</translation>
    </message>
    <message>
        <source>The etcdqt command-line tool was not found (looked for %1). Build the etcdqt target, or set ETCDQT_CLI to its path.</source>
        <translation>Das Kommandozeilenwerkzeug etcdqt wurde nicht gefunden (gesucht: %1). Bauen Sie das Target etcdqt oder setzen Sie ETCDQT_CLI auf seinen Pfad.</translation>
    </message>
    <message>
        <source>etcd was not found in PATH (%1). Install etcd (scripts/setup-deps does) to run the sandbox.</source>
        <translation>etcd wurde im PATH nicht gefunden (%1). Installieren Sie etcd (z. B. mit scripts/setup-deps), um die Sandbox zu starten.</translation>
    </message>
</context>
<context>
    <name>Inspector::TermsChart</name>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>%1 led %2 from %3 until %4, term token %5</source>
        <translation>%1 führte %2 von %3 bis %4, Amtszeit-Token %5</translation>
    </message>
    <message>
        <source>No hand-off seen live yet. Hand-offs rebuilt from etcd&apos;s history have no time: the table lists them.</source>
        <translation>Noch keine Übergabe live gesehen. Aus der Historie von etcd rekonstruierte Übergaben haben keine Uhrzeit: die Tabelle listet sie.</translation>
    </message>
</context>
<context>
    <name>Inspector::TimelineModel</name>
    <message>
        <source>nobody</source>
        <translation>niemand</translation>
    </message>
    <message>
        <source>history</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>live</source>
        <translation>live</translation>
    </message>
    <message>
        <source>%1 changed leader %2 or more times in 15 minutes</source>
        <translation>%1 hat in 15 Minuten %2-mal oder öfter den Leader gewechselt</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Election</source>
        <translation>Wahl</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Bisheriger Leader</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Neuer Leader</translation>
    </message>
    <message>
        <source>Term token</source>
        <translation>Amtszeit</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Rev.-Nr.</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
</context>
<context>
    <name>Inspector::TimelinePage</name>
    <message>
        <source>Flapping: %1 (4 or more new leaders within 15 minutes)</source>
        <translation>Instabil (Flattern): %1 (4 oder mehr neue Leader innerhalb von 15 Minuten)</translation>
    </message>
    <message>
        <source>Show as ta&amp;ble</source>
        <translation>Als &amp;Tabelle zeigen</translation>
    </message>
    <message>
        <source>The chart: Ctrl+wheel or +/- zooms, wheel, drag or arrows pan, Home fits every term, End follows the present.</source>
        <translation>Das Diagramm: Strg+Mausrad oder +/- zoomt, Mausrad, Ziehen oder Pfeiltasten verschieben, Pos1 zeigt alle Amtszeiten, Ende folgt der Gegenwart.</translation>
    </message>
</context>
<context>
    <name>Inspector::ViewDiff</name>
    <message>
        <source>%1 became a candidate in %2</source>
        <translation>%1 wurde Kandidat in %2</translation>
    </message>
    <message>
        <source>%1 left the election %2</source>
        <translation>%1 ist aus der Wahl %2 ausgeschieden</translation>
    </message>
    <message>
        <source>%1 became leader of %2, term token %3</source>
        <translation>%1 wurde Leader von %2, Amtszeit-Token %3</translation>
    </message>
    <message>
        <source>%1 no longer leads %2</source>
        <translation>%1 ist nicht mehr Leader von %2</translation>
    </message>
    <message>
        <source>%1 released %2</source>
        <translation>%1 hat %2 freigegeben</translation>
    </message>
    <message>
        <source>%1 acquired %2, token %3</source>
        <translation>%1 hat %2 erhalten, Token %3</translation>
    </message>
    <message>
        <source>%1 is waiting for %2</source>
        <translation>%1 wartet auf %2</translation>
    </message>
    <message>
        <source>%1 set barrier %2</source>
        <translation>%1 hat Barriere %2 gesetzt</translation>
    </message>
    <message>
        <source>barrier %1 lifted</source>
        <translation>Barriere %1 aufgehoben</translation>
    </message>
    <message>
        <source>%1 arrived at %2</source>
        <translation>%1 ist an %2 eingetroffen</translation>
    </message>
    <message>
        <source>%1 left %2</source>
        <translation>%1 hat %2 verlassen</translation>
    </message>
    <message>
        <source>%1 tripped: every member arrived</source>
        <translation>%1 ausgelöst: alle Mitglieder eingetroffen</translation>
    </message>
    <message>
        <source>%1 was deleted</source>
        <translation>%1 wurde gelöscht</translation>
    </message>
    <message>
        <source>%1 is now %2</source>
        <translation>%1 ist jetzt %2</translation>
    </message>
    <message>
        <source>%1 appeared</source>
        <translation>%1 ist aufgetaucht</translation>
    </message>
    <message>
        <source>%1 vanished</source>
        <translation>%1 ist verschwunden</translation>
    </message>
    <message>
        <source>lease %1</source>
        <translation>Lease %1</translation>
    </message>
    <message>
        <source>%1 registered with service %2</source>
        <translation>%1 hat sich beim Dienst %2 registriert</translation>
    </message>
    <message>
        <source>%1 of service %2 updated</source>
        <translation>%1 des Dienstes %2 aktualisiert</translation>
    </message>
    <message>
        <source>%1 left service %2</source>
        <translation>%1 hat den Dienst %2 verlassen</translation>
    </message>
</context>
<context>
    <name>Inspector::WorkloadProcess</name>
    <message>
        <source>%1: running (pid %2, run %3)</source>
        <translation>%1: läuft (PID %2, Durchlauf %3)</translation>
    </message>
    <message>
        <source>%1: stopped</source>
        <translation>%1: gestoppt</translation>
    </message>
    <message>
        <source>%1: waiting for its next run (last exit status %2)</source>
        <translation>%1: wartet auf den nächsten Durchlauf (letzter Exit-Status %2)</translation>
    </message>
</context>
</TS>
