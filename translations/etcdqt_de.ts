<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Etcd::Internal::QueueTaker</name>
    <message>
        <source>the take was cancelled</source>
        <translation>die Abholung wurde abgebrochen</translation>
    </message>
</context>
<context>
    <name>EtcdAbstractQueue</name>
    <message>
        <source>the queue was closed</source>
        <translation>die Warteschlange wurde geschlossen</translation>
    </message>
</context>
<context>
    <name>EtcdAtomicCounter</name>
    <message>
        <source>empty counter path</source>
        <translation>leerer Zählerpfad</translation>
    </message>
</context>
<context>
    <name>EtcdBarrier</name>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>empty barrier path</source>
        <translation>leerer Barrierenpfad</translation>
    </message>
    <message>
        <source>TTL must be positive</source>
        <translation>die TTL muss positiv sein</translation>
    </message>
    <message>
        <source>the barrier at %1 was set by someone else since; left alone</source>
        <translation>die Barriere unter %1 wurde inzwischen von jemand anderem gesetzt; unverändert belassen</translation>
    </message>
</context>
<context>
    <name>EtcdClient</name>
    <message>
        <source>the client was destroyed</source>
        <translation>der Client wurde zerstört</translation>
    </message>
    <message>
        <source>the client is not connected; call connectToEndpoints()</source>
        <translation>der Client ist nicht verbunden; rufen Sie connectToEndpoints() auf</translation>
    </message>
    <message>
        <source>empty key</source>
        <translation>leerer Schlüssel</translation>
    </message>
    <message>
        <source>a transaction takes at most %1 compares, %1 success and %1 failure operations; this one has %2, %3 and %4</source>
        <translation>eine Transaktion umfasst höchstens %1 Vergleiche, %1 Erfolgs- und %1 Fehlschlag-Operationen; diese hat %2, %3 und %4</translation>
    </message>
    <message>
        <source>transaction compare with an empty key</source>
        <translation>Transaktionsvergleich mit leerem Schlüssel</translation>
    </message>
    <message>
        <source>transaction operation with an empty key</source>
        <translation>Transaktionsoperation mit leerem Schlüssel</translation>
    </message>
    <message>
        <source>lease id must be positive, got %1</source>
        <translation>die Lease-ID muss positiv sein, ist aber %1</translation>
    </message>
    <message>
        <source>compaction revision must be positive, got %1</source>
        <translation>die Revision für die Kompaktierung muss positiv sein, ist aber %1</translation>
    </message>
    <message>
        <source>call made from a foreign thread</source>
        <translation>Aufruf aus einem fremden Thread</translation>
    </message>
    <message>
        <source>malformed endpoint URL &apos;%1&apos;: %2</source>
        <translation>ungültige Endpunkt-URL „%1“: %2</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; must use http:// or https://</source>
        <translation>Endpunkt „%1“ muss http:// oder https:// verwenden</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; has no host</source>
        <translation>Endpunkt „%1“ hat keinen Host</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; has no port</source>
        <translation>Endpunkt „%1“ hat keinen Port</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; must not have a path</source>
        <translation>Endpunkt „%1“ darf keinen Pfad haben</translation>
    </message>
    <message>
        <source>cannot read the TLS %1 file &apos;%2&apos;: %3</source>
        <translation>TLS-Datei (%1) „%2“ kann nicht gelesen werden: %3</translation>
    </message>
    <message>
        <source>the TLS %1 file &apos;%2&apos; is not PEM</source>
        <translation>die TLS-Datei (%1) „%2“ ist kein PEM</translation>
    </message>
    <message>
        <source>a client certificate needs its key, and a key its certificate</source>
        <translation>ein Client-Zertifikat braucht seinen Schlüssel und ein Schlüssel sein Zertifikat</translation>
    </message>
    <message>
        <source>no endpoints given</source>
        <translation>keine Endpunkte angegeben</translation>
    </message>
    <message>
        <source>endpoints mix http:// and https://</source>
        <translation>die Endpunkte mischen http:// und https://</translation>
    </message>
    <message>
        <source>client shut down</source>
        <translation>Client heruntergefahren</translation>
    </message>
    <message>
        <source>the client is being destroyed</source>
        <translation>der Client wird zerstört</translation>
    </message>
</context>
<context>
    <name>EtcdCountDownLatch</name>
    <message>
        <source>%1 does not hold an 8-byte number</source>
        <translation>%1 enthält keine 8-Byte-Zahl</translation>
    </message>
    <message>
        <source>empty latch path</source>
        <translation>leerer Latch-Pfad</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>a latch needs a count above zero</source>
        <translation>ein Latch braucht einen Zählerstand über null</translation>
    </message>
    <message>
        <source>no latch at %1</source>
        <translation>kein Latch unter %1</translation>
    </message>
</context>
<context>
    <name>EtcdElection</name>
    <message>
        <source>not the leader</source>
        <translation>nicht der Leader</translation>
    </message>
    <message>
        <source>empty prefix</source>
        <translation>leeres Präfix</translation>
    </message>
</context>
<context>
    <name>EtcdKeepAlive</name>
    <message>
        <source>lease id must be positive, and the TTL one etcd grants</source>
        <translation>die Lease-ID muss positiv sein und die TTL eine von etcd gewährte</translation>
    </message>
    <message>
        <source>the client is not connected</source>
        <translation>der Client ist nicht verbunden</translation>
    </message>
    <message>
        <source>client disconnected</source>
        <translation>Client-Verbindung getrennt</translation>
    </message>
    <message>
        <source>etcd no longer has the lease</source>
        <translation>etcd hat das Lease nicht mehr</translation>
    </message>
    <message>
        <source>no renewal was acknowledged within the lease&apos;s TTL</source>
        <translation>innerhalb der TTL des Leases wurde keine Verlängerung bestätigt</translation>
    </message>
    <message>
        <source>keep-alive stream silent</source>
        <translation>Keep-Alive-Stream stumm</translation>
    </message>
</context>
<context>
    <name>EtcdLeaderLatch</name>
    <message>
        <source>the latch is closed</source>
        <translation>der Latch ist geschlossen</translation>
    </message>
    <message>
        <source>start() already called</source>
        <translation>start() wurde bereits aufgerufen</translation>
    </message>
</context>
<context>
    <name>EtcdLeaderObserver</name>
    <message>
        <source>empty election path</source>
        <translation>leerer Wahlpfad</translation>
    </message>
</context>
<context>
    <name>EtcdLeaderSelector</name>
    <message>
        <source>the term is over</source>
        <translation>die Amtszeit ist vorbei</translation>
    </message>
    <message>
        <source>previous call to start() not complete</source>
        <translation>vorheriger Aufruf von start() nicht abgeschlossen</translation>
    </message>
    <message>
        <source>the selector is closed</source>
        <translation>der Selektor ist geschlossen</translation>
    </message>
    <message>
        <source>empty election path</source>
        <translation>leerer Wahlpfad</translation>
    </message>
    <message>
        <source>no client</source>
        <translation>kein Client</translation>
    </message>
    <message>
        <source>the leader key was deleted</source>
        <translation>der Leader-Schlüssel wurde gelöscht</translation>
    </message>
    <message>
        <source>another node holds the leader key</source>
        <translation>ein anderer Knoten hält den Leader-Schlüssel</translation>
    </message>
    <message>
        <source>leadership was not confirmed after reconnecting</source>
        <translation>die Leader-Rolle wurde nach der Neuverbindung nicht bestätigt</translation>
    </message>
    <message>
        <source>takeLeadership threw: %1</source>
        <translation>takeLeadership hat eine Ausnahme ausgelöst: %1</translation>
    </message>
    <message>
        <source>the leader key was deleted or taken</source>
        <translation>der Leader-Schlüssel wurde gelöscht oder übernommen</translation>
    </message>
    <message>
        <source>the leadership lease is gone</source>
        <translation>das Leader-Lease ist verschwunden</translation>
    </message>
    <message>
        <source>relinquishLeadership threw</source>
        <translation>relinquishLeadership hat eine Ausnahme ausgelöst</translation>
    </message>
    <message>
        <source>participation registration failed: %1</source>
        <translation>Registrierung der Teilnahme fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>EtcdLease</name>
    <message>
        <source>no client</source>
        <translation>kein Client</translation>
    </message>
    <message>
        <source>the lease TTL must be positive, got %1 s</source>
        <translation>die Lease-TTL muss positiv sein, ist aber %1 s</translation>
    </message>
    <message>
        <source>the lease TTL of %1 s is above etcd&apos;s maximum of %2 s</source>
        <translation>die Lease-TTL (%1 s) übersteigt das Maximum von etcd (%2 s)</translation>
    </message>
    <message>
        <source>lease grant took longer than %1 ms</source>
        <translation>die Lease-Gewährung dauerte länger als %1 ms</translation>
    </message>
    <message>
        <source>the establish hook did not answer within %1 ms</source>
        <translation>der Establish-Hook hat nicht innerhalb von %1 ms geantwortet</translation>
    </message>
    <message>
        <source>the establish hook declined the lease</source>
        <translation>der Establish-Hook hat das Lease abgelehnt</translation>
    </message>
    <message>
        <source>the establish hook threw: %1</source>
        <translation>der Establish-Hook hat eine Ausnahme ausgelöst: %1</translation>
    </message>
    <message>
        <source>the establish hook threw</source>
        <translation>der Establish-Hook hat eine Ausnahme ausgelöst</translation>
    </message>
    <message>
        <source>the lease was granted after its TTL had run out on this client&apos;s clock (etcd answered late)</source>
        <translation>die Lease wurde erst gewährt, als ihre TTL nach der Uhr dieses Clients schon abgelaufen war (etcd hat spät geantwortet)</translation>
    </message>
</context>
<context>
    <name>EtcdLeasedKeys</name>
    <message>
        <source>no client</source>
        <translation>kein Client</translation>
    </message>
    <message>
        <source>no keys</source>
        <translation>keine Schlüssel</translation>
    </message>
    <message>
        <source>empty key</source>
        <translation>leerer Schlüssel</translation>
    </message>
</context>
<context>
    <name>EtcdNodeCache</name>
    <message>
        <source>empty key</source>
        <translation>leerer Schlüssel</translation>
    </message>
</context>
<context>
    <name>EtcdParticipantsModel</name>
    <message>
        <source>empty election path</source>
        <translation>leerer Wahlpfad</translation>
    </message>
</context>
<context>
    <name>EtcdParticipantsReply</name>
    <message>
        <source>empty election path</source>
        <translation>leerer Wahlpfad</translation>
    </message>
    <message>
        <source>no client</source>
        <translation>kein Client</translation>
    </message>
</context>
<context>
    <name>EtcdPathChildrenCache</name>
    <message>
        <source>empty path</source>
        <translation>leerer Pfad</translation>
    </message>
</context>
<context>
    <name>EtcdPriorityQueue</name>
    <message>
        <source>priority %1 is outside 0..%2</source>
        <translation>Priorität %1 liegt außerhalb von 0..%2</translation>
    </message>
    <message>
        <source>gave up after %1 enqueues at this priority lost to others</source>
        <translation>aufgegeben: %1 Einreihversuche mit dieser Priorität gingen an andere verloren</translation>
    </message>
</context>
<context>
    <name>EtcdPrometheusExporter</name>
    <message>
        <source>already listening on port %1</source>
        <translation>lauscht bereits auf Port %1</translation>
    </message>
    <message>
        <source>cannot listen on %1 port %2: %3</source>
        <translation>Lauschen auf %1, Port %2, nicht möglich: %3</translation>
    </message>
</context>
<context>
    <name>EtcdQueue</name>
    <message>
        <source>empty queue path</source>
        <translation>leerer Warteschlangenpfad</translation>
    </message>
    <message>
        <source>%1 bytes are more than etcd accepts in one request (%2 bytes)</source>
        <translation>%1 Bytes sind mehr, als etcd in einer Anfrage annimmt (%2 Bytes)</translation>
    </message>
    <message>
        <source>no values to enqueue</source>
        <translation>keine Werte zum Einreihen</translation>
    </message>
    <message>
        <source>%1 values are more than one transaction takes (%2)</source>
        <translation>%1 Werte sind mehr, als eine Transaktion aufnimmt (%2)</translation>
    </message>
</context>
<context>
    <name>EtcdReadWriteLock</name>
    <message>
        <source>a read hold cannot be upgraded to a write hold</source>
        <translation>eine Lesesperre kann nicht zu einer Schreibsperre hochgestuft werden</translation>
    </message>
</context>
<context>
    <name>EtcdRecipe</name>
    <message>
        <source>empty barrier path</source>
        <translation>leerer Barrierenpfad</translation>
    </message>
    <message>
        <source>member count must be positive</source>
        <translation>die Mitgliederzahl muss positiv sein</translation>
    </message>
    <message>
        <source>%1 was deleted by someone else</source>
        <translation>%1 wurde von jemand anderem gelöscht</translation>
    </message>
    <message>
        <source>%1 was written over by someone else</source>
        <translation>%1 wurde von jemand anderem überschrieben</translation>
    </message>
    <message>
        <source>%1 went with its lease</source>
        <translation>%1 ist mit seinem Lease verschwunden</translation>
    </message>
    <message>
        <source>the value of %1 at revision %2 does not decode</source>
        <translation>der Wert von %1 bei Revision %2 lässt sich nicht dekodieren</translation>
    </message>
    <message>
        <source>%1 does not hold an 8-byte number</source>
        <translation>%1 enthält keine 8-Byte-Zahl</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>empty counter path</source>
        <translation>leerer Zählerpfad</translation>
    </message>
    <message>
        <source>election</source>
        <translation>die Wahl</translation>
    </message>
    <message>
        <source>read-write lock</source>
        <translation>die Lese-Schreib-Sperre</translation>
    </message>
    <message>
        <source>semaphore</source>
        <translation>das Semaphor</translation>
    </message>
    <message>
        <source>the %1 is closed</source>
        <translation>%1 ist geschlossen</translation>
    </message>
    <message>
        <source>a %1 needs at least one permit</source>
        <translation>%1 braucht mindestens einen Platz</translation>
    </message>
    <message>
        <source>empty %1 path</source>
        <translation>leerer Pfad für %1</translation>
    </message>
    <message>
        <source>no client</source>
        <translation>kein Client</translation>
    </message>
    <message>
        <source>the %1&apos;s lease is gone: %2</source>
        <translation>%1 hat kein Lease mehr: %2</translation>
    </message>
    <message>
        <source>the %1 key was deleted</source>
        <translation>der Schlüssel für %1 wurde gelöscht</translation>
    </message>
    <message>
        <source>the %1&apos;s lease is gone</source>
        <translation>%1 hat kein Lease mehr</translation>
    </message>
    <message>
        <source>the hold is over</source>
        <translation>die Belegung ist beendet</translation>
    </message>
    <message>
        <source>no answer to the release in time; the lease&apos;s end removes the key</source>
        <translation>keine Antwort auf die Freigabe in der Zeit; mit dem Ende des Leases verschwindet der Schlüssel</translation>
    </message>
    <message>
        <source>the %1 was lost before it was released</source>
        <translation>%1 ging vor der Freigabe verloren</translation>
    </message>
    <message>
        <source>lock</source>
        <translation>die Sperre</translation>
    </message>
    <message>
        <source>the client is not connected</source>
        <translation>der Client ist nicht verbunden</translation>
    </message>
    <message>
        <source>no answer in time; the write commits only while it holds</source>
        <translation>keine rechtzeitige Antwort; der Schreibvorgang wird nur festgeschrieben, solange die Belegung besteht</translation>
    </message>
    <message>
        <source>called in the object&apos;s own thread</source>
        <translation>im eigenen Thread des Objekts aufgerufen</translation>
    </message>
</context>
<context>
    <name>EtcdReply</name>
    <message>
        <source>request aborted</source>
        <translation>Anfrage abgebrochen</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>nothing arrived in time</source>
        <translation>nichts ist rechtzeitig eingetroffen</translation>
    </message>
    <message>
        <source>no answer in time; outcome unknown</source>
        <translation>keine rechtzeitige Antwort; Ergebnis unbekannt</translation>
    </message>
</context>
<context>
    <name>EtcdSelfHealingKeepAlive</name>
    <message>
        <source>lease %1 given up: etcd could not be asked about it (%2)</source>
        <translation>Lease %1 aufgegeben: etcd konnte nicht dazu befragt werden (%2)</translation>
    </message>
    <message>
        <source>etcd no longer has lease %1</source>
        <translation>etcd hat das Lease %1 nicht mehr</translation>
    </message>
    <message>
        <source>no establish hook</source>
        <translation>kein Establish-Hook</translation>
    </message>
</context>
<context>
    <name>EtcdSemaphore</name>
    <message>
        <source>semaphore %1 has %2 permits in etcd, not %3</source>
        <translation>Semaphor %1 hat in etcd %2 Plätze, nicht %3</translation>
    </message>
    <message>
        <source>semaphore %1: %2 does not hold a 4-byte count</source>
        <translation>Semaphor %1: %2 enthält keine 4-Byte-Anzahl</translation>
    </message>
</context>
<context>
    <name>EtcdServiceCache</name>
    <message>
        <source>%1 at revision %2 is left out: %3</source>
        <translation>%1 bei Revision %2 wird ausgelassen: %3</translation>
    </message>
</context>
<context>
    <name>EtcdServiceDiscovery</name>
    <message>
        <source>no instance at %1</source>
        <translation>keine Instanz unter %1</translation>
    </message>
    <message>
        <source>empty service path</source>
        <translation>leerer Dienstpfad</translation>
    </message>
    <message>
        <source>a service path and a service name without &apos;/&apos; are needed</source>
        <translation>ein Dienstpfad und ein Dienstname ohne „/“ werden benötigt</translation>
    </message>
    <message>
        <source>a service path, and a service name and id without &apos;/&apos; are needed</source>
        <translation>ein Dienstpfad sowie ein Dienstname und eine ID ohne „/“ werden benötigt</translation>
    </message>
</context>
<context>
    <name>EtcdServiceInstance</name>
    <message>
        <source>service instance JSON: &quot;%1&quot; is %2</source>
        <translation>JSON der Dienstinstanz: „%1“ ist %2</translation>
    </message>
    <message>
        <source>service instance JSON: %1 at offset %2</source>
        <translation>JSON der Dienstinstanz: %1 bei Offset %2</translation>
    </message>
    <message>
        <source>service instance JSON: not an object</source>
        <translation>JSON der Dienstinstanz: kein Objekt</translation>
    </message>
</context>
<context>
    <name>EtcdServiceRegistry</name>
    <message>
        <source>service registration failed for %1: %2</source>
        <translation>Dienstregistrierung für %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>empty service path</source>
        <translation>leerer Dienstpfad</translation>
    </message>
    <message>
        <source>%1 is registered already; use updateService()</source>
        <translation>%1 ist bereits registriert; verwenden Sie updateService()</translation>
    </message>
    <message>
        <source>%1 is not registered here</source>
        <translation>%1 ist hier nicht registriert</translation>
    </message>
    <message>
        <source>unregistered before it was written</source>
        <translation>abgemeldet, bevor es geschrieben wurde</translation>
    </message>
</context>
<context>
    <name>EtcdTransientKeyValue</name>
    <message>
        <source>%1 is held by lease %2; not reclaimed</source>
        <translation>%1 hängt an Lease %2; nicht zurückgeholt</translation>
    </message>
    <message>
        <source>%1 was written without a lease by someone else; not reclaimed</source>
        <translation>%1 wurde von jemand anderem ohne Lease geschrieben; nicht zurückgeholt</translation>
    </message>
    <message>
        <source>empty key</source>
        <translation>leerer Schlüssel</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>%1 is no longer on this object&apos;s lease</source>
        <translation>%1 hängt nicht mehr am Lease dieses Objekts</translation>
    </message>
</context>
<context>
    <name>EtcdWatch</name>
    <message>
        <source>empty key</source>
        <translation>leerer Schlüssel</translation>
    </message>
    <message>
        <source>the client is not connected</source>
        <translation>der Client ist nicht verbunden</translation>
    </message>
    <message>
        <source>client disconnected</source>
        <translation>Client-Verbindung getrennt</translation>
    </message>
</context>
<context>
    <name>EtcdWorkQueue</name>
    <message>
        <source>the queue was closed</source>
        <translation>die Warteschlange wurde geschlossen</translation>
    </message>
    <message>
        <source>not a delivered item</source>
        <translation>kein zugestelltes Element</translation>
    </message>
</context>
</TS>
