<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>Etcd::Internal::QueueTaker</name>
    <message>
        <source>the take was cancelled</source>
        <translation>la prise d&apos;élément a été annulée</translation>
    </message>
</context>
<context>
    <name>EtcdAbstractQueue</name>
    <message>
        <source>the queue was closed</source>
        <translation>la file d&apos;attente a été fermée</translation>
    </message>
</context>
<context>
    <name>EtcdAtomicCounter</name>
    <message>
        <source>empty counter path</source>
        <translation>chemin de compteur vide</translation>
    </message>
</context>
<context>
    <name>EtcdBarrier</name>
    <message>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <source>empty barrier path</source>
        <translation>chemin de barrière vide</translation>
    </message>
    <message>
        <source>TTL must be positive</source>
        <translation>le TTL doit être positif</translation>
    </message>
    <message>
        <source>the barrier at %1 was set by someone else since; left alone</source>
        <translation>la barrière à %1 a depuis été posée par quelqu&apos;un d&apos;autre&#xa0;; laissée en place</translation>
    </message>
</context>
<context>
    <name>EtcdClient</name>
    <message>
        <source>the client was destroyed</source>
        <translation>le client a été détruit</translation>
    </message>
    <message>
        <source>the client is not connected; call connectToEndpoints()</source>
        <translation>le client n&apos;est pas connecté&#xa0;; appelez connectToEndpoints()</translation>
    </message>
    <message>
        <source>empty key</source>
        <translation>clé vide</translation>
    </message>
    <message>
        <source>a transaction takes at most %1 compares, %1 success and %1 failure operations; this one has %2, %3 and %4</source>
        <translation>une transaction comporte au plus %1 comparaisons, %1 opérations en cas de succès et %1 en cas d&apos;échec&#xa0;; celle-ci en a %2, %3 et %4</translation>
    </message>
    <message>
        <source>transaction compare with an empty key</source>
        <translation>comparaison de transaction avec une clé vide</translation>
    </message>
    <message>
        <source>transaction operation with an empty key</source>
        <translation>opération de transaction avec une clé vide</translation>
    </message>
    <message>
        <source>lease id must be positive, got %1</source>
        <translation>l&apos;identifiant de bail doit être positif, reçu&#xa0;: %1</translation>
    </message>
    <message>
        <source>compaction revision must be positive, got %1</source>
        <translation>la révision de compactage doit être positive, reçu&#xa0;: %1</translation>
    </message>
    <message>
        <source>call made from a foreign thread</source>
        <translation>appel effectué depuis un thread étranger</translation>
    </message>
    <message>
        <source>malformed endpoint URL &apos;%1&apos;: %2</source>
        <translation>URL de point de terminaison «&#xa0;%1&#xa0;» mal formée&#xa0;: %2</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; must use http:// or https://</source>
        <translation>le point de terminaison «&#xa0;%1&#xa0;» doit utiliser http:// ou https://</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; has no host</source>
        <translation>le point de terminaison «&#xa0;%1&#xa0;» n&apos;a pas d&apos;hôte</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; has no port</source>
        <translation>le point de terminaison «&#xa0;%1&#xa0;» n&apos;a pas de port</translation>
    </message>
    <message>
        <source>endpoint &apos;%1&apos; must not have a path</source>
        <translation>le point de terminaison «&#xa0;%1&#xa0;» ne doit pas avoir de chemin</translation>
    </message>
    <message>
        <source>cannot read the TLS %1 file &apos;%2&apos;: %3</source>
        <translation>impossible de lire le fichier TLS (%1) «&#xa0;%2&#xa0;»&#xa0;: %3</translation>
    </message>
    <message>
        <source>the TLS %1 file &apos;%2&apos; is not PEM</source>
        <translation>le fichier TLS (%1) «&#xa0;%2&#xa0;» n&apos;est pas au format PEM</translation>
    </message>
    <message>
        <source>a client certificate needs its key, and a key its certificate</source>
        <translation>un certificat client nécessite sa clé, et une clé son certificat</translation>
    </message>
    <message>
        <source>no endpoints given</source>
        <translation>aucun point de terminaison indiqué</translation>
    </message>
    <message>
        <source>endpoints mix http:// and https://</source>
        <translation>les points de terminaison mélangent http:// et https://</translation>
    </message>
    <message>
        <source>client shut down</source>
        <translation>client arrêté</translation>
    </message>
    <message>
        <source>the client is being destroyed</source>
        <translation>le client est en cours de destruction</translation>
    </message>
</context>
<context>
    <name>EtcdCountDownLatch</name>
    <message>
        <source>%1 does not hold an 8-byte number</source>
        <translation>%1 ne contient pas un nombre sur 8 octets</translation>
    </message>
    <message>
        <source>empty latch path</source>
        <translation>chemin de loquet vide</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <source>a latch needs a count above zero</source>
        <translation>un loquet nécessite un compte supérieur à zéro</translation>
    </message>
    <message>
        <source>no latch at %1</source>
        <translation>aucun loquet à %1</translation>
    </message>
</context>
<context>
    <name>EtcdElection</name>
    <message>
        <source>not the leader</source>
        <translation>pas le leader</translation>
    </message>
    <message>
        <source>empty prefix</source>
        <translation>préfixe vide</translation>
    </message>
</context>
<context>
    <name>EtcdKeepAlive</name>
    <message>
        <source>lease id must be positive, and the TTL one etcd grants</source>
        <translation>l&apos;identifiant de bail doit être positif, et le TTL celui qu&apos;accorde etcd</translation>
    </message>
    <message>
        <source>the client is not connected</source>
        <translation>le client n&apos;est pas connecté</translation>
    </message>
    <message>
        <source>client disconnected</source>
        <translation>client déconnecté</translation>
    </message>
    <message>
        <source>etcd no longer has the lease</source>
        <translation>etcd n&apos;a plus le bail</translation>
    </message>
    <message>
        <source>no renewal was acknowledged within the lease&apos;s TTL</source>
        <translation>aucun renouvellement n&apos;a été confirmé dans le délai du TTL du bail</translation>
    </message>
    <message>
        <source>keep-alive stream silent</source>
        <translation>flux keep-alive muet</translation>
    </message>
</context>
<context>
    <name>EtcdLeaderLatch</name>
    <message>
        <source>the latch is closed</source>
        <translation>le loquet est fermé</translation>
    </message>
    <message>
        <source>start() already called</source>
        <translation>start() a déjà été appelé</translation>
    </message>
</context>
<context>
    <name>EtcdLeaderObserver</name>
    <message>
        <source>empty election path</source>
        <translation>chemin d&apos;élection vide</translation>
    </message>
</context>
<context>
    <name>EtcdLeaderSelector</name>
    <message>
        <source>the term is over</source>
        <translation>le mandat est terminé</translation>
    </message>
    <message>
        <source>previous call to start() not complete</source>
        <translation>l&apos;appel précédent à start() n&apos;est pas terminé</translation>
    </message>
    <message>
        <source>the selector is closed</source>
        <translation>le sélecteur est fermé</translation>
    </message>
    <message>
        <source>empty election path</source>
        <translation>chemin d&apos;élection vide</translation>
    </message>
    <message>
        <source>no client</source>
        <translation>aucun client</translation>
    </message>
    <message>
        <source>the leader key was deleted</source>
        <translation>la clé du leader a été supprimée</translation>
    </message>
    <message>
        <source>another node holds the leader key</source>
        <translation>un autre nœud détient la clé du leader</translation>
    </message>
    <message>
        <source>leadership was not confirmed after reconnecting</source>
        <translation>le rôle de leader n&apos;a pas été confirmé après la reconnexion</translation>
    </message>
    <message>
        <source>takeLeadership threw: %1</source>
        <translation>takeLeadership a levé une exception&#xa0;: %1</translation>
    </message>
    <message>
        <source>the leader key was deleted or taken</source>
        <translation>la clé du leader a été supprimée ou prise</translation>
    </message>
    <message>
        <source>the leadership lease is gone</source>
        <translation>le bail du leader a disparu</translation>
    </message>
    <message>
        <source>relinquishLeadership threw</source>
        <translation>relinquishLeadership a levé une exception</translation>
    </message>
    <message>
        <source>participation registration failed: %1</source>
        <translation>l&apos;enregistrement de la participation a échoué&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>EtcdLease</name>
    <message>
        <source>no client</source>
        <translation>aucun client</translation>
    </message>
    <message>
        <source>the lease TTL must be positive, got %1 s</source>
        <translation>le TTL du bail doit être positif, reçu&#xa0;: %1 s</translation>
    </message>
    <message>
        <source>the lease TTL of %1 s is above etcd&apos;s maximum of %2 s</source>
        <translation>le TTL du bail (%1 s) dépasse le maximum d&apos;etcd (%2 s)</translation>
    </message>
    <message>
        <source>lease grant took longer than %1 ms</source>
        <translation>l&apos;octroi du bail a pris plus de %1 ms</translation>
    </message>
    <message>
        <source>the establish hook did not answer within %1 ms</source>
        <translation>le hook d&apos;établissement n&apos;a pas répondu dans les %1 ms</translation>
    </message>
    <message>
        <source>the establish hook declined the lease</source>
        <translation>le hook d&apos;établissement a refusé le bail</translation>
    </message>
    <message>
        <source>the establish hook threw: %1</source>
        <translation>le hook d&apos;établissement a levé une exception&#xa0;: %1</translation>
    </message>
    <message>
        <source>the establish hook threw</source>
        <translation>le hook d&apos;établissement a levé une exception</translation>
    </message>
    <message>
        <source>the lease was granted after its TTL had run out on this client&apos;s clock (etcd answered late)</source>
        <translation>le bail a été accordé après l&apos;expiration de son TTL selon l&apos;horloge de ce client (etcd a répondu tard)</translation>
    </message>
</context>
<context>
    <name>EtcdLeasedKeys</name>
    <message>
        <source>no client</source>
        <translation>aucun client</translation>
    </message>
    <message>
        <source>no keys</source>
        <translation>aucune clé</translation>
    </message>
    <message>
        <source>empty key</source>
        <translation>clé vide</translation>
    </message>
</context>
<context>
    <name>EtcdNodeCache</name>
    <message>
        <source>empty key</source>
        <translation>clé vide</translation>
    </message>
</context>
<context>
    <name>EtcdParticipantsModel</name>
    <message>
        <source>empty election path</source>
        <translation>chemin d&apos;élection vide</translation>
    </message>
</context>
<context>
    <name>EtcdParticipantsReply</name>
    <message>
        <source>empty election path</source>
        <translation>chemin d&apos;élection vide</translation>
    </message>
    <message>
        <source>no client</source>
        <translation>aucun client</translation>
    </message>
</context>
<context>
    <name>EtcdPathChildrenCache</name>
    <message>
        <source>empty path</source>
        <translation>chemin vide</translation>
    </message>
</context>
<context>
    <name>EtcdPriorityQueue</name>
    <message>
        <source>priority %1 is outside 0..%2</source>
        <translation>la priorité %1 est hors de 0..%2</translation>
    </message>
    <message>
        <source>gave up after %1 enqueues at this priority lost to others</source>
        <translation>abandon&#xa0;: %1 tentatives d&apos;ajout à cette priorité perdues face à d&apos;autres</translation>
    </message>
</context>
<context>
    <name>EtcdPrometheusExporter</name>
    <message>
        <source>already listening on port %1</source>
        <translation>déjà à l&apos;écoute sur le port %1</translation>
    </message>
    <message>
        <source>cannot listen on %1 port %2: %3</source>
        <translation>impossible d&apos;écouter sur %1, port %2&#xa0;: %3</translation>
    </message>
</context>
<context>
    <name>EtcdQueue</name>
    <message>
        <source>empty queue path</source>
        <translation>chemin de file d&apos;attente vide</translation>
    </message>
    <message>
        <source>%1 bytes are more than etcd accepts in one request (%2 bytes)</source>
        <translation>%1 octets, c&apos;est plus qu&apos;etcd n&apos;accepte en une requête (%2 octets)</translation>
    </message>
    <message>
        <source>no values to enqueue</source>
        <translation>aucune valeur à ajouter</translation>
    </message>
    <message>
        <source>%1 values are more than one transaction takes (%2)</source>
        <translation>%1 valeurs, c&apos;est plus qu&apos;une transaction n&apos;en accepte (%2)</translation>
    </message>
</context>
<context>
    <name>EtcdReadWriteLock</name>
    <message>
        <source>a read hold cannot be upgraded to a write hold</source>
        <translation>un verrou de lecture ne peut pas être promu en verrou d&apos;écriture</translation>
    </message>
</context>
<context>
    <name>EtcdRecipe</name>
    <message>
        <source>empty barrier path</source>
        <translation>chemin de barrière vide</translation>
    </message>
    <message>
        <source>member count must be positive</source>
        <translation>le nombre de membres doit être positif</translation>
    </message>
    <message>
        <source>%1 was deleted by someone else</source>
        <translation>%1 a été supprimé par quelqu&apos;un d&apos;autre</translation>
    </message>
    <message>
        <source>%1 was written over by someone else</source>
        <translation>%1 a été écrasé par quelqu&apos;un d&apos;autre</translation>
    </message>
    <message>
        <source>%1 went with its lease</source>
        <translation>%1 a disparu avec son bail</translation>
    </message>
    <message>
        <source>the value of %1 at revision %2 does not decode</source>
        <translation>la valeur de %1 à la révision %2 n&apos;est pas décodable</translation>
    </message>
    <message>
        <source>%1 does not hold an 8-byte number</source>
        <translation>%1 ne contient pas un nombre sur 8 octets</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <source>empty counter path</source>
        <translation>chemin de compteur vide</translation>
    </message>
    <message>
        <source>election</source>
        <translation>l&apos;élection</translation>
    </message>
    <message>
        <source>read-write lock</source>
        <translation>le verrou lecture-écriture</translation>
    </message>
    <message>
        <source>semaphore</source>
        <translation>le sémaphore</translation>
    </message>
    <message>
        <source>the %1 is closed</source>
        <translation>%1 est à l&apos;état fermé</translation>
    </message>
    <message>
        <source>a %1 needs at least one permit</source>
        <translation>%1 nécessite au moins une place</translation>
    </message>
    <message>
        <source>empty %1 path</source>
        <translation>chemin vide pour %1</translation>
    </message>
    <message>
        <source>no client</source>
        <translation>aucun client</translation>
    </message>
    <message>
        <source>the %1&apos;s lease is gone: %2</source>
        <translation>%1 n&apos;a plus de bail&#xa0;: %2</translation>
    </message>
    <message>
        <source>the %1 key was deleted</source>
        <translation>la clé pour %1 a été supprimée</translation>
    </message>
    <message>
        <source>the %1&apos;s lease is gone</source>
        <translation>%1 n&apos;a plus de bail</translation>
    </message>
    <message>
        <source>the hold is over</source>
        <translation>la détention a pris fin</translation>
    </message>
    <message>
        <source>no answer to the release in time; the lease&apos;s end removes the key</source>
        <translation>pas de réponse à la libération à temps ; la fin du bail supprime la clé</translation>
    </message>
    <message>
        <source>the %1 was lost before it was released</source>
        <translation>on a perdu %1 avant sa libération</translation>
    </message>
    <message>
        <source>lock</source>
        <translation>le verrou</translation>
    </message>
    <message>
        <source>the client is not connected</source>
        <translation>le client n&apos;est pas connecté</translation>
    </message>
    <message>
        <source>no answer in time; the write commits only while it holds</source>
        <translation>pas de réponse à temps&#xa0;; l&apos;écriture n&apos;est validée que tant que la détention dure</translation>
    </message>
    <message>
        <source>called in the object&apos;s own thread</source>
        <translation>appelé dans le thread propre de l&apos;objet</translation>
    </message>
</context>
<context>
    <name>EtcdReply</name>
    <message>
        <source>request aborted</source>
        <translation>requête interrompue</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <source>nothing arrived in time</source>
        <translation>rien n&apos;est arrivé à temps</translation>
    </message>
    <message>
        <source>no answer in time; outcome unknown</source>
        <translation>pas de réponse à temps&#xa0;; résultat inconnu</translation>
    </message>
</context>
<context>
    <name>EtcdSelfHealingKeepAlive</name>
    <message>
        <source>lease %1 given up: etcd could not be asked about it (%2)</source>
        <translation>bail %1 abandonné&#xa0;: impossible d&apos;interroger etcd à son sujet (%2)</translation>
    </message>
    <message>
        <source>etcd no longer has lease %1</source>
        <translation>etcd n&apos;a plus le bail %1</translation>
    </message>
    <message>
        <source>no establish hook</source>
        <translation>aucun hook d&apos;établissement</translation>
    </message>
</context>
<context>
    <name>EtcdSemaphore</name>
    <message>
        <source>semaphore %1 has %2 permits in etcd, not %3</source>
        <translation>le sémaphore %1 a %2 places dans etcd, et non %3</translation>
    </message>
    <message>
        <source>semaphore %1: %2 does not hold a 4-byte count</source>
        <translation>sémaphore %1&#xa0;: %2 ne contient pas un nombre sur 4 octets</translation>
    </message>
</context>
<context>
    <name>EtcdServiceCache</name>
    <message>
        <source>%1 at revision %2 is left out: %3</source>
        <translation>%1 à la révision %2 est ignoré&#xa0;: %3</translation>
    </message>
</context>
<context>
    <name>EtcdServiceDiscovery</name>
    <message>
        <source>no instance at %1</source>
        <translation>aucune instance à %1</translation>
    </message>
    <message>
        <source>empty service path</source>
        <translation>chemin de service vide</translation>
    </message>
    <message>
        <source>a service path and a service name without &apos;/&apos; are needed</source>
        <translation>un chemin de service et un nom de service sans «&#xa0;/&#xa0;» sont nécessaires</translation>
    </message>
    <message>
        <source>a service path, and a service name and id without &apos;/&apos; are needed</source>
        <translation>un chemin de service, ainsi qu&apos;un nom de service et un identifiant sans «&#xa0;/&#xa0;», sont nécessaires</translation>
    </message>
</context>
<context>
    <name>EtcdServiceInstance</name>
    <message>
        <source>service instance JSON: &quot;%1&quot; is %2</source>
        <translation>JSON de l&apos;instance de service&#xa0;: «&#xa0;%1&#xa0;» est %2</translation>
    </message>
    <message>
        <source>service instance JSON: %1 at offset %2</source>
        <translation>JSON de l&apos;instance de service&#xa0;: %1 à la position %2</translation>
    </message>
    <message>
        <source>service instance JSON: not an object</source>
        <translation>JSON de l&apos;instance de service&#xa0;: pas un objet</translation>
    </message>
</context>
<context>
    <name>EtcdServiceRegistry</name>
    <message>
        <source>service registration failed for %1: %2</source>
        <translation>l&apos;enregistrement du service a échoué pour %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <source>empty service path</source>
        <translation>chemin de service vide</translation>
    </message>
    <message>
        <source>%1 is registered already; use updateService()</source>
        <translation>%1 est déjà enregistré&#xa0;; utilisez updateService()</translation>
    </message>
    <message>
        <source>%1 is not registered here</source>
        <translation>%1 n&apos;est pas enregistré ici</translation>
    </message>
    <message>
        <source>unregistered before it was written</source>
        <translation>retiré avant d&apos;avoir été écrit</translation>
    </message>
</context>
<context>
    <name>EtcdTransientKeyValue</name>
    <message>
        <source>%1 is held by lease %2; not reclaimed</source>
        <translation>%1 est sur le bail %2&#xa0;; non récupéré</translation>
    </message>
    <message>
        <source>%1 was written without a lease by someone else; not reclaimed</source>
        <translation>%1 a été écrit sans bail par quelqu&apos;un d&apos;autre&#xa0;; non récupéré</translation>
    </message>
    <message>
        <source>empty key</source>
        <translation>clé vide</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <source>%1 is no longer on this object&apos;s lease</source>
        <translation>%1 n&apos;est plus sur le bail de cet objet</translation>
    </message>
</context>
<context>
    <name>EtcdWatch</name>
    <message>
        <source>empty key</source>
        <translation>clé vide</translation>
    </message>
    <message>
        <source>the client is not connected</source>
        <translation>le client n&apos;est pas connecté</translation>
    </message>
    <message>
        <source>client disconnected</source>
        <translation>client déconnecté</translation>
    </message>
</context>
<context>
    <name>EtcdWorkQueue</name>
    <message>
        <source>the queue was closed</source>
        <translation>la file d&apos;attente a été fermée</translation>
    </message>
    <message>
        <source>not a delivered item</source>
        <translation>pas un élément livré</translation>
    </message>
</context>
</TS>
