<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>Etcd::Decode</name>
    <message>
        <source>%1 is not a leased &quot;&lt;clientId&gt;:&lt;7&gt;&quot; value: not read as the leader</source>
        <translation>%1 n&apos;est pas une valeur «&#xa0;&lt;clientId&gt;:&lt;7&gt;&#xa0;» liée à un bail&#xa0;: non lue comme leader</translation>
    </message>
    <message>
        <source>%1 is not a participation key: not read as one</source>
        <translation>%1 n&apos;est pas une clé de participation&#xa0;: non lue comme telle</translation>
    </message>
    <message>
        <source>%1 is not an unleased 4-byte count of 1 or more: not read as the permits</source>
        <translation>%1 n&apos;est pas un nombre sur 4 octets, sans bail, valant au moins 1&#xa0;: non lu comme nombre de places</translation>
    </message>
    <message>
        <source>%1 is not a holder entry: not read as one</source>
        <translation>%1 n&apos;est pas une entrée de détenteur&#xa0;: non lue comme telle</translation>
    </message>
    <message>
        <source>no readable permits key: which entries hold is unknown</source>
        <translation>aucune clé «&#xa0;permits&#xa0;» lisible&#xa0;: on ignore quelles entrées occupent une place</translation>
    </message>
    <message>
        <source>%1 is not an unleased &quot;&lt;clientId&gt;:&lt;7&gt;&quot;: not read as the round marker</source>
        <translation>%1 n&apos;est pas un «&#xa0;&lt;clientId&gt;:&lt;7&gt;&#xa0;» sans bail&#xa0;: non lu comme marqueur de tour</translation>
    </message>
    <message>
        <source>%1 is not a waiting member: not read as one</source>
        <translation>%1 n&apos;est pas un membre en attente&#xa0;: non lu comme tel</translation>
    </message>
    <message>
        <source>the expected member count is not stored in etcd</source>
        <translation>le nombre de membres attendu n&apos;est pas stocké dans etcd</translation>
    </message>
    <message>
        <source>one phase only: a counted barrier named .../enter or .../leave looks the same</source>
        <translation>une seule phase&#xa0;: une barrière à comptage nommée .../enter ou .../leave est indiscernable</translation>
    </message>
    <message>
        <source>%1 reads under its own write hold (a downgrade)</source>
        <translation>%1 lit sous son propre verrou d&apos;écriture (rétrogradation)</translation>
    </message>
    <message>
        <source>etcd&apos;s concurrency.Election layout: the earliest key leads; values are proclamations</source>
        <translation>structure de concurrency.Election d&apos;etcd&#xa0;: la clé la plus ancienne est leader&#xa0;; les valeurs sont des proclamations</translation>
    </message>
    <message>
        <source>etcd&apos;s concurrency.Mutex layout; a concurrency.Election with empty values looks the same</source>
        <translation>structure de concurrency.Mutex d&apos;etcd&#xa0;; une concurrency.Election aux valeurs vides est indiscernable</translation>
    </message>
    <message>
        <source>a transient key holding a &quot;&lt;clientId&gt;:&lt;7&gt;&quot; value looks the same</source>
        <translation>une clé transitoire contenant une valeur «&#xa0;&lt;clientId&gt;:&lt;7&gt;&#xa0;» est indiscernable</translation>
    </message>
    <message>
        <source>an atomic counter, or a count-down latch (open at 0): the layouts are the same</source>
        <translation>un compteur atomique ou un loquet à décompte (ouvert à 0)&#xa0;: les structures sont identiques</translation>
    </message>
    <message>
        <source>%1 holds the JSON of instance &quot;%2&quot;: its key&apos;s id counts</source>
        <translation>%1 contient le JSON de l’instance «&#xa0;%2&#xa0;»&#xa0;: l’identifiant de la clé prévaut</translation>
    </message>
    <message>
        <source>%1 holds the JSON of service &quot;%2&quot;</source>
        <translation>%1 contient le JSON du service «&#xa0;%2&#xa0;»</translation>
    </message>
    <message>
        <source>%1 is on no lease: it outlives whoever registered it</source>
        <translation>%1 n’est sur aucun bail&#xa0;: il survit à qui l’a enregistré</translation>
    </message>
    <message>
        <source>%1 is on no lease: this claim never expires</source>
        <translation>%1 n’est sur aucun bail&#xa0;: cette réservation n’expire jamais</translation>
    </message>
    <message>
        <source>%1 is on a lease: not read as part of the work queue</source>
        <translation>%1 est sur un bail&#xa0;: non lue comme partie de la file de travail</translation>
    </message>
    <message>
        <source>%1 is not a 4-byte count: not read as attempts</source>
        <translation>%1 n’est pas un compte sur 4 octets&#xa0;: non lue comme nombre de tentatives</translation>
    </message>
    <message>
        <source>%1 claims an item that is not in claimed/</source>
        <translation>%1 réserve un élément absent de claimed/</translation>
    </message>
    <message>
        <source>only %1/ holds keys: a FIFO queue at %1 looks the same</source>
        <translation>seul %1/ contient des clés&#xa0;: une file FIFO à %1 est indiscernable</translation>
    </message>
    <message>
        <source>%1 is not an unleased empty value: not read as a priority marker</source>
        <translation>%1 n’est pas une valeur vide sans bail&#xa0;: non lue comme marqueur de priorité</translation>
    </message>
    <message>
        <source>%1 is on a lease: not read as a queue item</source>
        <translation>%1 est sur un bail&#xa0;: non lue comme élément de file</translation>
    </message>
</context>
<context>
    <name>Inspector::ChartsPage</name>
    <message>
        <source>New leaders per minute</source>
        <translation>Nouveaux leaders par minute</translation>
    </message>
    <message>
        <source>Lock wait and hold, median (ms)</source>
        <translation>Attente et détention des verrous, médiane (ms)</translation>
    </message>
    <message>
        <source>Watch events per second</source>
        <translation>Événements de watch par seconde</translation>
    </message>
    <message>
        <source>Leases by granted TTL</source>
        <translation>Baux par TTL accordé</translation>
    </message>
    <message>
        <source>minutes ago</source>
        <translation>minutes avant</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>attente</translation>
    </message>
    <message>
        <source>hold</source>
        <translation>détention</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>events/s</source>
        <translation>événements/s</translation>
    </message>
    <message>
        <source>seconds ago</source>
        <translation>secondes avant</translation>
    </message>
    <message>
        <source>leases</source>
        <translation>baux</translation>
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
        <translation>plus</translation>
    </message>
    <message>
        <source>granted TTL, up to</source>
        <translation>TTL accordé, jusqu&apos;à</translation>
    </message>
</context>
<context>
    <name>Inspector::ClusterModel</name>
    <message>
        <source>learner</source>
        <translation>apprenant</translation>
    </message>
    <message>
        <source>leader</source>
        <translation>leader</translation>
    </message>
    <message>
        <source>follower</source>
        <translation>suiveur</translation>
    </message>
    <message>
        <source>%1, connected</source>
        <translation>%1, connecté</translation>
    </message>
    <message>
        <source>(not started)</source>
        <translation>(non démarré)</translation>
    </message>
    <message>
        <source>Member</source>
        <translation>Membre</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rôle</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>État</translation>
    </message>
    <message>
        <source>DB size</source>
        <translation>Taille de la base</translation>
    </message>
    <message>
        <source>Raft index</source>
        <translation>Index Raft</translation>
    </message>
    <message>
        <source>Raft term</source>
        <translation>Terme Raft</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Alarms</source>
        <translation>Alarmes</translation>
    </message>
    <message>
        <source>Client URLs</source>
        <translation>URL client</translation>
    </message>
    <message>
        <source>Peer URLs</source>
        <translation>URL des pairs</translation>
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
        <translation>interrogation…</translation>
    </message>
    <message>
        <source>healthy</source>
        <translation>sain</translation>
    </message>
    <message>
        <source>no leader</source>
        <translation>aucun leader</translation>
    </message>
    <message>
        <source>alarm</source>
        <translation>alarme</translation>
    </message>
    <message>
        <source>down</source>
        <translation>injoignable</translation>
    </message>
</context>
<context>
    <name>Inspector::ConnectDialog</name>
    <message>
        <source>Connect to etcd</source>
        <translation>Connexion à etcd</translation>
    </message>
    <message>
        <source>(new profile)</source>
        <translation>(nouveau profil)</translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>non enregistré</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nom&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Endpoints:</source>
        <translation>Points de &amp;terminaison&#xa0;:</translation>
    </message>
    <message>
        <source>P&amp;refix:</source>
        <translation>P&amp;réfixe&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;CA certificate:</source>
        <translation>Certificat C&amp;A&#xa0;:</translation>
    </message>
    <message>
        <source>Client cer&amp;tificate:</source>
        <translation>Certificat &amp;client&#xa0;:</translation>
    </message>
    <message>
        <source>Client &amp;key:</source>
        <translation>C&amp;lé client&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation>&amp;Utilisateur&#xa0;:</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>&amp;Mot de passe&#xa0;:</translation>
    </message>
    <message>
        <source>C&amp;onnect</source>
        <translation>Se c&amp;onnecter</translation>
    </message>
    <message>
        <source>&amp;Save profile</source>
        <translation>&amp;Enregistrer le profil</translation>
    </message>
    <message>
        <source>Give the profile a name to save it.</source>
        <translation>Donnez un nom au profil pour l&apos;enregistrer.</translation>
    </message>
    <message>
        <source>Profile &quot;%1&quot; saved (without the password).</source>
        <translation>Profil «&#xa0;%1&#xa0;» enregistré (sans le mot de passe).</translation>
    </message>
</context>
<context>
    <name>Inspector::EventLogModel</name>
    <message>
        <source>Time</source>
        <translation>Heure</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Révision</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Événement</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>Recette</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Acteur</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Détails</translation>
    </message>
</context>
<context>
    <name>Inspector::InspectorSession</name>
    <message>
        <source>No endpoint given.</source>
        <translation>Aucun point de terminaison indiqué.</translation>
    </message>
    <message>
        <source>Endpoint &quot;%1&quot; is not of the form http(s)://host:port.</source>
        <translation>Le point de terminaison «&#xa0;%1&#xa0;» n&apos;est pas de la forme http(s)://hôte:port.</translation>
    </message>
    <message>
        <source>The prefix must not be empty (use / for every key).</source>
        <translation>Le préfixe ne doit pas être vide (utilisez / pour toutes les clés).</translation>
    </message>
    <message>
        <source>TLS file &quot;%1&quot; cannot be read.</source>
        <translation>Le fichier TLS «&#xa0;%1&#xa0;» est illisible.</translation>
    </message>
    <message>
        <source>A client certificate needs its key, and a key its certificate.</source>
        <translation>Un certificat client nécessite sa clé, et une clé son certificat.</translation>
    </message>
    <message>
        <source>The update interval must not be negative.</source>
        <translation>L&apos;intervalle de mise à jour ne doit pas être négatif.</translation>
    </message>
    <message>
        <source>lease %1</source>
        <translation>bail %1</translation>
    </message>
    <message>
        <source>lease %1: %2</source>
        <translation>bail %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>Non connecté</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Connexion…</translation>
    </message>
    <message>
        <source>Loading keys…</source>
        <translation>Chargement des clés…</translation>
    </message>
    <message>
        <source>Live at revision %1</source>
        <translation>En direct, révision %1</translation>
    </message>
    <message>
        <source>Resynchronising…</source>
        <translation>Resynchronisation…</translation>
    </message>
    <message>
        <source>Failed; retrying</source>
        <translation>Échec&#xa0;; nouvelle tentative</translation>
    </message>
    <message>
        <source>Reading %1 failed: %2</source>
        <translation>La lecture de %1 a échoué&#xa0;: %2</translation>
    </message>
    <message>
        <source>The watch on %1 ended: %2</source>
        <translation>La surveillance (watch) de %1 s&apos;est arrêtée&#xa0;: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 is flapping: %n new leader(s) in 15 minutes</source>
        <translation>
            <numerusform>%1 est instable (oscillation)&#xa0;: %n nouveau leader en 15 minutes</numerusform>
            <numerusform>%1 est instable (oscillation)&#xa0;: %n nouveaux leaders en 15 minutes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Inspector::LaunchOptions</name>
    <message>
        <source>etcd endpoints, comma-separated (http://127.0.0.1:2379).</source>
        <translation>Points de terminaison etcd, séparés par des virgules (http://127.0.0.1:2379).</translation>
    </message>
    <message>
        <source>CA certificate file (PEM).</source>
        <translation>Fichier du certificat CA (PEM).</translation>
    </message>
    <message>
        <source>Client certificate file (PEM).</source>
        <translation>Fichier du certificat client (PEM).</translation>
    </message>
    <message>
        <source>Client key file (PEM).</source>
        <translation>Fichier de la clé client (PEM).</translation>
    </message>
    <message>
        <source>User name; the password is read from ETCDQT_PASSWORD or asked for.</source>
        <translation>Nom d&apos;utilisateur&#xa0;; le mot de passe est lu dans ETCDQT_PASSWORD ou demandé.</translation>
    </message>
    <message>
        <source>Key prefix to inspect (default /).</source>
        <translation>Préfixe des clés à inspecter (par défaut /).</translation>
    </message>
    <message>
        <source>true (default) or false: false enables revoke, step-down, release and lift.</source>
        <translation>true (par défaut) ou false&#xa0;: false active la révocation, le retrait forcé, la libération et la levée.</translation>
    </message>
    <message>
        <source>Saved connection profile.</source>
        <translation>Profil de connexion enregistré.</translation>
    </message>
    <message>
        <source>Start a private etcd with a demo workload and inspect it.</source>
        <translation>Démarrer un etcd privé avec une charge de travail de démonstration et l&apos;inspecter.</translation>
    </message>
    <message>
        <source>User interface language: en, de or fr (default: the system&apos;s).</source>
        <translation>Langue de l&apos;interface&#xa0;: en, de ou fr (par défaut&#xa0;: celle du système).</translation>
    </message>
    <message>
        <source>light or dark.</source>
        <translation>light ou dark.</translation>
    </message>
    <message>
        <source>Save a PNG of every view to this directory once the data is loaded, then quit.</source>
        <translation>Une fois les données chargées, enregistrer un PNG de chaque vue dans ce répertoire, puis quitter.</translation>
    </message>
    <message>
        <source>A recipe-aware live view of an etcd cluster.</source>
        <translation>Une vue en direct d&apos;un cluster etcd qui reconnaît les recettes.</translation>
    </message>
    <message>
        <source>Unexpected argument: %1</source>
        <translation>Argument inattendu&#xa0;: %1</translation>
    </message>
    <message>
        <source>--read-only takes true or false.</source>
        <translation>--read-only accepte true ou false.</translation>
    </message>
    <message>
        <source>--theme takes light or dark.</source>
        <translation>--theme accepte light ou dark.</translation>
    </message>
    <message>
        <source>--sandbox starts its own etcd: it cannot be combined with --endpoints.</source>
        <translation>--sandbox démarre son propre etcd&#xa0;: impossible de le combiner avec --endpoints.</translation>
    </message>
    <message>
        <source>--profile cannot be combined with --endpoints or --sandbox.</source>
        <translation>--profile ne peut pas être combiné avec --endpoints ou --sandbox.</translation>
    </message>
    <message>
        <source>No saved profile is called &quot;%1&quot;.</source>
        <translation>Aucun profil enregistré ne s’appelle «&#xa0;%1&#xa0;».</translation>
    </message>
</context>
<context>
    <name>Inspector::LeaseClock</name>
    <message>
        <source>TTL above its grant</source>
        <translation>TTL supérieur à la durée accordée</translation>
    </message>
    <message>
        <source>negative TTL</source>
        <translation>TTL négatif</translation>
    </message>
    <message>
        <source>key present, lease gone</source>
        <translation>clé présente, bail disparu</translation>
    </message>
    <message>
        <source>TTL jumped up after going unrenewed</source>
        <translation>TTL remonté d&apos;un coup après une période sans renouvellement</translation>
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
            <numerusform>Bail %1&#xa0;: %n clé</numerusform>
            <numerusform>Bail %1&#xa0;: %n clés</numerusform>
        </translation>
    </message>
    <message>
        <source>(raw key)</source>
        <translation>(clé brute)</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>recipe kind, role of the key</comment>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>Lease / key</source>
        <translation>Bail / clé</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Granted</source>
        <translation>Accordé</translation>
    </message>
    <message>
        <source>Keys / recipe</source>
        <translation>Clés / recette</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rôle</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>Anomalies</translation>
    </message>
</context>
<context>
    <name>Inspector::LogPage</name>
    <message>
        <source>Show h&amp;istory</source>
        <translation>Afficher l&apos;&amp;historique</translation>
    </message>
    <message>
        <source>F&amp;ollow</source>
        <translation>&amp;Suivre</translation>
    </message>
    <message>
        <source>All events</source>
        <translation>Tous les événements</translation>
    </message>
    <message>
        <source>Leadership</source>
        <translation>Élections et leaders</translation>
    </message>
    <message>
        <source>Locks and semaphores</source>
        <translation>Verrous et sémaphores</translation>
    </message>
    <message>
        <source>Barriers</source>
        <translation>Barrières</translation>
    </message>
    <message>
        <source>Counters and latches</source>
        <translation>Compteurs et loquets</translation>
    </message>
    <message>
        <source>Transient keys</source>
        <translation>Clés transitoires</translation>
    </message>
    <message>
        <source>Anomalies and alerts</source>
        <translation>Anomalies et alertes</translation>
    </message>
    <message>
        <source>Which kind of event to show</source>
        <translation>Type d&apos;événements à afficher</translation>
    </message>
    <message>
        <source>Services</source>
        <translation>Services</translation>
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
        <translation>&amp;Recettes</translation>
    </message>
    <message>
        <source>&amp;Leases</source>
        <translation>&amp;Baux</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Chronologie</translation>
    </message>
    <message>
        <source>&amp;Event log</source>
        <translation>&amp;Journal des événements</translation>
    </message>
    <message>
        <source>Ra&amp;w keys</source>
        <translation>C&amp;lés brutes</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>&amp;Connexion…</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>&amp;Recharger</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>Rec&amp;hercher</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>Thème &amp;sombre</translation>
    </message>
    <message>
        <source>&amp;Actions</source>
        <translation>Ac&amp;tions</translation>
    </message>
    <message>
        <source>Force &amp;step-down…</source>
        <translation>Forcer le &amp;retrait…</translation>
    </message>
    <message>
        <source>&amp;Release lock…</source>
        <translation>&amp;Libérer le verrou…</translation>
    </message>
    <message>
        <source>&amp;Lift barrier…</source>
        <translation>Lever la &amp;barrière…</translation>
    </message>
    <message>
        <source>Re&amp;voke lease…</source>
        <translation>Ré&amp;voquer le bail…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Ai&amp;de</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Raccourcis clavier</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Lecture seule</translation>
    </message>
    <message>
        <source>Writes enabled</source>
        <translation>Écriture activée</translation>
    </message>
    <message>
        <source>Actions are off. Start with --read-only=false to enable them.</source>
        <translation>Les actions sont désactivées. Lancez avec --read-only=false pour les activer.</translation>
    </message>
    <message>
        <source>Revoke, step-down, release and lift are enabled; each asks first.</source>
        <translation>Révocation, retrait forcé, libération et levée sont activés&#xa0;; chacun demande confirmation.</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>Connecté</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Connexion</translation>
    </message>
    <message>
        <source>Reconnecting</source>
        <translation>Reconnexion</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>Déconnecté</translation>
    </message>
    <message numerus="yes">
        <source>%n recipe(s)</source>
        <translation>
            <numerusform>%n recette</numerusform>
            <numerusform>%n recettes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lease(s)</source>
        <translation>
            <numerusform>%n bail</numerusform>
            <numerusform>%n baux</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n raw key(s)</source>
        <translation>
            <numerusform>%n clé brute</numerusform>
            <numerusform>%n clés brutes</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 — etcdqt inspector</source>
        <translation>%1 %2 — etcdqt inspector</translation>
    </message>
    <message>
        <source>Sandbox: private etcd at %1</source>
        <translation>Bac à sable&#xa0;: etcd privé sur %1</translation>
    </message>
    <message>
        <source>Sandbox failed: %1</source>
        <translation>Échec du bac à sable&#xa0;: %1</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>Starting the sandbox: a private etcd and its workload…</source>
        <translation>Démarrage du bac à sable&#xa0;: un etcd privé et sa charge de travail…</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>Read-only: start with --read-only=false to enable this.</source>
        <translation>Lecture seule&#xa0;: lancez avec --read-only=false pour activer cette action.</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rôle</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Qui</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Jeton</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Bail</translation>
    </message>
    <message>
        <source>Read-only session: actions are off.</source>
        <translation>Session en lecture seule&#xa0;: les actions sont désactivées.</translation>
    </message>
    <message>
        <source>Actions: see the Actions menu.</source>
        <translation>Actions&#xa0;: voir le menu «&#xa0;Actions&#xa0;».</translation>
    </message>
    <message>
        <source>Read-only: start with --read-only=false to act.</source>
        <translation>Lecture seule&#xa0;: lancez avec --read-only=false pour agir.</translation>
    </message>
    <message>
        <source>This will end:</source>
        <translation>Ceci mettra fin à ce qui suit&#xa0;:</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>«&#xa0;%1&#xa0;» a échoué&#xa0;: %2</translation>
    </message>
    <message>
        <source>%1 refused: the holder you saw is already gone (token %2).</source>
        <translation>«&#xa0;%1&#xa0;» refusé&#xa0;: le détenteur affiché n&apos;est plus là (jeton %2).</translation>
    </message>
    <message>
        <source>%1 done.</source>
        <translation>«&#xa0;%1&#xa0;» effectué.</translation>
    </message>
    <message>
        <source>operator</source>
        <translation>opérateur</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more key(s)</source>
        <translation>
            <numerusform>… et %n clé de plus</numerusform>
            <numerusform>… et %n clés de plus</numerusform>
        </translation>
    </message>
    <message>
        <source>Cl&amp;uster</source>
        <translation>Cl&amp;uster</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>&amp;Vue d&apos;ensemble</translation>
    </message>
    <message>
        <source>&amp;Charts</source>
        <translation>&amp;Graphiques</translation>
    </message>
    <message>
        <source>Under %1 (shown as …/)</source>
        <translation>Sous %1 (affiché comme …/)</translation>
    </message>
</context>
<context>
    <name>Inspector::Overview</name>
    <message>
        <source>in</source>
        <translation>entrée</translation>
    </message>
    <message>
        <source>out</source>
        <translation>sortie</translation>
    </message>
    <message>
        <source>term %1</source>
        <translation>mandat %1</translation>
    </message>
    <message>
        <source>token %1</source>
        <translation>jeton %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n permit(s) held</source>
        <translation>
            <numerusform>%1 sur %n permis occupé</numerusform>
            <numerusform>%1 sur %n permis occupés</numerusform>
        </translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>en attente</translation>
    </message>
    <message>
        <source>arrived</source>
        <translation>arrivés</translation>
    </message>
</context>
<context>
    <name>Inspector::OverviewPage</name>
    <message>
        <source>No recipes under this prefix yet.</source>
        <translation>Aucune recette sous ce préfixe pour l&apos;instant.</translation>
    </message>
    <message numerus="yes">
        <source>%n recipe(s)</source>
        <translation>
            <numerusform>%n recette</numerusform>
            <numerusform>%n recettes</numerusform>
        </translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>+%1 de plus</translation>
    </message>
</context>
<context>
    <name>Inspector::Pages</name>
    <message>
        <source>Filter (%1)</source>
        <translation>Filtrer (%1)</translation>
    </message>
</context>
<context>
    <name>Inspector::RawKeyModel</name>
    <message>
        <source>Key: %1
Value: %2</source>
        <translation>Clé&#xa0;: %1
Valeur&#xa0;: %2</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <source>Create rev</source>
        <translation>Rév. créa.</translation>
    </message>
    <message>
        <source>Mod rev</source>
        <translation>Rév. mod.</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Bail</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipeActions</name>
    <message>
        <source>%1 stops leading %2 (term token %3)</source>
        <translation>%1 cesse d&apos;être leader de %2 (jeton de mandat %3)</translation>
    </message>
    <message>
        <source>%1 leaves the election %2</source>
        <translation>%1 quitte l&apos;élection %2</translation>
    </message>
    <message>
        <source>%1 loses %2 (fencing token %3)</source>
        <translation>%1 perd %2 (jeton de fencing %3)</translation>
    </message>
    <message>
        <source>%1 leaves the queue of %2</source>
        <translation>%1 quitte la file d&apos;attente de %2</translation>
    </message>
    <message>
        <source>barrier %1 lifts: its waiters pass</source>
        <translation>la barrière %1 est levée&#xa0;: ceux qui l&apos;attendent passent</translation>
    </message>
    <message>
        <source>%1 leaves %2</source>
        <translation>%1 quitte %2</translation>
    </message>
    <message>
        <source>key %1 is deleted</source>
        <translation>la clé %1 est supprimée</translation>
    </message>
    <message>
        <source>%1, first in the queue, may acquire it next</source>
        <translation>%1, premier de la file d&apos;attente, pourra l&apos;acquérir ensuite</translation>
    </message>
    <message>
        <source>%1 %2?</source>
        <translation>%1&#xa0;: %2&#xa0;?</translation>
    </message>
    <message>
        <source>Nothing in view holds it any more: it has already ended.</source>
        <translation>Plus rien dans la vue ne le détient&#xa0;: c&apos;est déjà terminé.</translation>
    </message>
    <message numerus="yes">
        <source>Lease %1 and every key on it (%n key(s)) are removed.</source>
        <translation>
            <numerusform>Le bail %1 et toute clé qui y est attachée (%n clé) sont supprimés.</numerusform>
            <numerusform>Le bail %1 et toutes les clés qui y sont attachées (%n clés) sont supprimés.</numerusform>
        </translation>
    </message>
    <message>
        <source>Revoke lease</source>
        <translation>Révoquer le bail</translation>
    </message>
    <message>
        <source>Force step-down</source>
        <translation>Forcer le retrait</translation>
    </message>
    <message>
        <source>Release lock</source>
        <translation>Libérer le verrou</translation>
    </message>
    <message>
        <source>Lift barrier</source>
        <translation>Lever la barrière</translation>
    </message>
    <message>
        <source>%1 leaves service %2: clients stop choosing it</source>
        <translation>%1 quitte le service %2&#xa0;: les clients ne le choisissent plus</translation>
    </message>
    <message>
        <source>%1 loses its claim on item %2 of %3: the next consumer reclaims it</source>
        <translation>%1 perd sa réservation de l’élément %2 de %3&#xa0;: le prochain consommateur le récupère</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipeEvent</name>
    <message>
        <source>leader elected</source>
        <translation>leader élu</translation>
    </message>
    <message>
        <source>leader lost</source>
        <translation>leader perdu</translation>
    </message>
    <message>
        <source>candidate joined</source>
        <translation>candidat arrivé</translation>
    </message>
    <message>
        <source>candidate left</source>
        <translation>candidat parti</translation>
    </message>
    <message>
        <source>acquired</source>
        <translation>acquis</translation>
    </message>
    <message>
        <source>released</source>
        <translation>libéré</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>en file d&apos;attente</translation>
    </message>
    <message>
        <source>barrier set</source>
        <translation>barrière posée</translation>
    </message>
    <message>
        <source>barrier lifted</source>
        <translation>barrière levée</translation>
    </message>
    <message>
        <source>member arrived</source>
        <translation>membre arrivé</translation>
    </message>
    <message>
        <source>barrier tripped</source>
        <translation>barrière ouverte</translation>
    </message>
    <message>
        <source>count changed</source>
        <translation>compteur modifié</translation>
    </message>
    <message>
        <source>key appeared</source>
        <translation>clé apparue</translation>
    </message>
    <message>
        <source>key vanished</source>
        <translation>clé disparue</translation>
    </message>
    <message>
        <source>anomaly</source>
        <translation>anomalie</translation>
    </message>
    <message>
        <source>flapping</source>
        <translation>oscillation</translation>
    </message>
    <message>
        <source>connection</source>
        <translation>connexion</translation>
    </message>
    <message>
        <source>instance registered</source>
        <translation>instance enregistrée</translation>
    </message>
    <message>
        <source>instance updated</source>
        <translation>instance mise à jour</translation>
    </message>
    <message>
        <source>instance gone</source>
        <translation>instance disparue</translation>
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
        <translation>Clé&#xa0;: %1
Valeur&#xa0;: %2</translation>
    </message>
    <message>
        <source>Recipe / role</source>
        <translation>Recette / rôle</translation>
    </message>
    <message>
        <source>Owner / summary</source>
        <translation>Propriétaire / résumé</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Jeton</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Bail</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Remarques</translation>
    </message>
    <message>
        <source>Key: %1
Endpoint: %2
URI: %3
Enabled: %4
Registered: %5
Payload: %6</source>
        <translation>Clé&#xa0;: %1
Point d’accès&#xa0;: %2
URI&#xa0;: %3
Activée&#xa0;: %4
Enregistrée&#xa0;: %5
Charge utile&#xa0;: %6</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <source>no</source>
        <translation>non</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipeText</name>
    <message>
        <source>election</source>
        <translation>élection</translation>
    </message>
    <message>
        <source>mutex</source>
        <translation>mutex</translation>
    </message>
    <message>
        <source>read-write lock</source>
        <translation>verrou lecture-écriture</translation>
    </message>
    <message>
        <source>semaphore</source>
        <translation>sémaphore</translation>
    </message>
    <message>
        <source>barrier</source>
        <translation>barrière</translation>
    </message>
    <message>
        <source>counted barrier</source>
        <translation>barrière à comptage</translation>
    </message>
    <message>
        <source>double barrier</source>
        <translation>double barrière</translation>
    </message>
    <message>
        <source>counter or latch</source>
        <translation>compteur ou loquet</translation>
    </message>
    <message>
        <source>transient key</source>
        <translation>clé transitoire</translation>
    </message>
    <message>
        <source>leader</source>
        <translation>leader</translation>
    </message>
    <message>
        <source>candidate</source>
        <translation>candidat</translation>
    </message>
    <message>
        <source>holder</source>
        <translation>détenteur</translation>
    </message>
    <message>
        <source>waiter</source>
        <translation>en attente</translation>
    </message>
    <message>
        <source>holder or waiter</source>
        <translation>détenteur ou en attente</translation>
    </message>
    <message>
        <source>ready marker</source>
        <translation>marqueur «&#xa0;prêt&#xa0;»</translation>
    </message>
    <message>
        <source>member</source>
        <translation>membre</translation>
    </message>
    <message>
        <source>setter</source>
        <translation>auteur</translation>
    </message>
    <message>
        <source>value</source>
        <translation>valeur</translation>
    </message>
    <message>
        <source>%1 (read)</source>
        <comment>role, read side of a read-write lock</comment>
        <translation>%1 (lecture)</translation>
    </message>
    <message>
        <source>%1 (write)</source>
        <comment>role, write side of a read-write lock</comment>
        <translation>%1 (écriture)</translation>
    </message>
    <message>
        <source>%1 (enter)</source>
        <comment>role, entry phase of a double barrier</comment>
        <translation>%1 (entrée)</translation>
    </message>
    <message>
        <source>%1 (leave)</source>
        <comment>role, exit phase of a double barrier</comment>
        <translation>%1 (sortie)</translation>
    </message>
    <message>
        <source>lease %1</source>
        <translation>bail %1</translation>
    </message>
    <message numerus="yes">
        <source>leader %1 since revision %2 (%n candidate(s))</source>
        <translation>
            <numerusform>leader %1 depuis la révision %2 (%n candidat)</numerusform>
            <numerusform>leader %1 depuis la révision %2 (%n candidats)</numerusform>
        </translation>
    </message>
    <message>
        <source>no leader</source>
        <translation>aucun leader</translation>
    </message>
    <message numerus="yes">
        <source>held by %1, %n waiting</source>
        <translation>
            <numerusform>détenu par %1, %n en attente</numerusform>
            <numerusform>détenu par %1, %n en attente</numerusform>
        </translation>
    </message>
    <message>
        <source>free</source>
        <translation>libre</translation>
    </message>
    <message numerus="yes">
        <source>permits unknown, %n entries</source>
        <translation>
            <numerusform>places inconnues, %n entrée</numerusform>
            <numerusform>places inconnues, %n entrées</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 permits used, %n waiting</source>
        <translation>
            <numerusform>%1 places occupées sur %2, %n en attente</numerusform>
            <numerusform>%1 places occupées sur %2, %n en attente</numerusform>
        </translation>
    </message>
    <message>
        <source>set by %1</source>
        <translation>posée par %1</translation>
    </message>
    <message>
        <source>lifted</source>
        <translation>levée</translation>
    </message>
    <message numerus="yes">
        <source>%n member(s) arrived, tripped</source>
        <translation>
            <numerusform>%n membre arrivé, ouverte</numerusform>
            <numerusform>%n membres arrivés, ouverte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n member(s) arrived</source>
        <translation>
            <numerusform>%n membre arrivé</numerusform>
            <numerusform>%n membres arrivés</numerusform>
        </translation>
    </message>
    <message>
        <source>value %1</source>
        <translation>valeur %1</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>aucune valeur</translation>
    </message>
    <message>
        <source>?</source>
        <comment>TTL not known yet</comment>
        <translation>?</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>expiré</translation>
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
        <translation>échu</translation>
    </message>
    <message>
        <source>service</source>
        <translation>service</translation>
    </message>
    <message>
        <source>instance</source>
        <translation>instance</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <comment>service instance id at address:port</comment>
        <translation>%1 à %2</translation>
    </message>
    <message>
        <source>%1 (disabled)</source>
        <comment>a disabled service instance</comment>
        <translation>%1 (désactivée)</translation>
    </message>
    <message>
        <source>no instances</source>
        <translation>aucune instance</translation>
    </message>
    <message numerus="yes">
        <source>%n instance(s): %1</source>
        <translation>
            <numerusform>%n instance&#xa0;: %1</numerusform>
            <numerusform>%n instances&#xa0;: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>queue</source>
        <translation>file d’attente</translation>
    </message>
    <message>
        <source>priority queue</source>
        <translation>file à priorités</translation>
    </message>
    <message>
        <source>work queue</source>
        <translation>file de travail</translation>
    </message>
    <message>
        <source>item</source>
        <translation>élément</translation>
    </message>
    <message>
        <source>level marker</source>
        <comment>priority queue: the marker key of one priority level</comment>
        <translation>marqueur de niveau</translation>
    </message>
    <message>
        <source>in flight</source>
        <comment>work queue: an item a consumer has claimed</comment>
        <translation>en cours</translation>
    </message>
    <message>
        <source>claim</source>
        <comment>work queue: the consumer&apos;s leased claim key</comment>
        <translation>réservation</translation>
    </message>
    <message>
        <source>attempt count</source>
        <translation>compteur de tentatives</translation>
    </message>
    <message>
        <source>dead letter</source>
        <translation>lettre morte</translation>
    </message>
    <message>
        <source>delayed</source>
        <translation>différé</translation>
    </message>
    <message>
        <source>%1 (priority %2)</source>
        <comment>role (priority level)</comment>
        <translation>%1 (priorité %2)</translation>
    </message>
    <message>
        <source>orphaned: reclaimable</source>
        <translation>orphelin&#xa0;: récupérable</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n tentative</numerusform>
            <numerusform>%n tentatives</numerusform>
        </translation>
    </message>
    <message>
        <source>level %1</source>
        <translation>niveau %1</translation>
    </message>
    <message>
        <source>p%1: %2</source>
        <comment>priority level: items waiting</comment>
        <translation>p%1&#xa0;: %2</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>vide</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s); head %1</source>
        <translation>
            <numerusform>%n élément&#xa0;; en tête %1</numerusform>
            <numerusform>%n éléments&#xa0;; en tête %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s); head %1, enqueued %2 ago</source>
        <translation>
            <numerusform>%n élément&#xa0;; en tête %1, ajouté il y a %2</numerusform>
            <numerusform>%n éléments&#xa0;; en tête %1, ajouté il y a %2</numerusform>
        </translation>
    </message>
    <message>
        <source>empty (%1)</source>
        <comment>priority queue: no items; per-level counts</comment>
        <translation>vide (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) (%1); next %2 at priority %3</source>
        <translation>
            <numerusform>%n élément (%1)&#xa0;; ensuite %2 en priorité %3</numerusform>
            <numerusform>%n éléments (%1)&#xa0;; ensuite %2 en priorité %3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 pending, %2 in flight, %3 dead, %4 delayed</source>
        <translation>%1 en attente, %2 en cours, %3 en lettres mortes, %4 différés</translation>
    </message>
    <message numerus="yes">
        <source>, %n orphaned: reclaimable</source>
        <translation>
            <numerusform>, %n orphelin&#xa0;: récupérable</numerusform>
            <numerusform>, %n orphelins&#xa0;: récupérables</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (priority %2, sequence %3)</source>
        <translation>%1 (priorité %2, séquence %3)</translation>
    </message>
    <message>
        <source>%1 (%2), enqueued %3, %4 ago</source>
        <translation>%1 (%2), ajouté le %3, il y a %4</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… et %n de plus</numerusform>
            <numerusform>… et %n de plus</numerusform>
        </translation>
    </message>
    <message>
        <source>In flight: %1</source>
        <translation>En cours&#xa0;: %1</translation>
    </message>
    <message>
        <source>%1: orphaned: reclaimable (attempt %2, no claim: its consumer&apos;s lease ended)</source>
        <translation>%1&#xa0;: orphelin&#xa0;: récupérable (tentative %2, aucune réservation&#xa0;: le bail de son consommateur a pris fin)</translation>
    </message>
    <message>
        <source>%1: consumer %2, attempt %3, lease %4, TTL %5</source>
        <translation>%1&#xa0;: consommateur %2, tentative %3, bail %4, TTL %5</translation>
    </message>
    <message>
        <source>Dead letters: %1</source>
        <translation>Lettres mortes&#xa0;: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n attempt(s), %2</source>
        <translation>
            <numerusform>%1&#xa0;: %n tentative, %2</numerusform>
            <numerusform>%1&#xa0;: %n tentatives, %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Delayed: %1</source>
        <translation>Différés&#xa0;: %1</translation>
    </message>
    <message>
        <source>%1: due %2 (%3), %4</source>
        <translation>%1&#xa0;: prévu le %2 (%3), %4</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>dans %1</translation>
    </message>
    <message>
        <source>%1 overdue</source>
        <translation>en retard de %1</translation>
    </message>
    <message numerus="yes">
        <source>Pending: %n item(s)</source>
        <translation>
            <numerusform>En attente&#xa0;: %n élément</numerusform>
            <numerusform>En attente&#xa0;: %n éléments</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Depth: %n item(s)</source>
        <translation>
            <numerusform>Profondeur&#xa0;: %n élément</numerusform>
            <numerusform>Profondeur&#xa0;: %n éléments</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Priority %1: %n item(s)</source>
        <translation>
            <numerusform>Priorité %1&#xa0;: %n élément</numerusform>
            <numerusform>Priorité %1&#xa0;: %n éléments</numerusform>
        </translation>
    </message>
    <message>
        <source> (its marker key was not read)</source>
        <translation> (sa clé de marqueur n’a pas été lue)</translation>
    </message>
    <message>
        <source>Next: %1</source>
        <translation>Ensuite&#xa0;: %1</translation>
    </message>
    <message>
        <source>Head: %1</source>
        <translation>En tête&#xa0;: %1</translation>
    </message>
    <message>
        <source>Nothing waits to be taken.</source>
        <translation>Rien n’attend d’être pris.</translation>
    </message>
    <message>
        <source>enqueued %1 ago</source>
        <translation>ajouté il y a %1</translation>
    </message>
    <message numerus="yes">
        <source>delivered %n time(s) before</source>
        <translation>
            <numerusform>déjà livré %n fois</numerusform>
            <numerusform>déjà livré %n fois</numerusform>
        </translation>
    </message>
    <message>
        <source>orphaned: reclaimable (attempt %1)</source>
        <translation>orphelin&#xa0;: récupérable (tentative %1)</translation>
    </message>
    <message>
        <source>attempt %1</source>
        <translation>tentative %1</translation>
    </message>
    <message numerus="yes">
        <source>dead after %n attempt(s)</source>
        <translation>
            <numerusform>mort après %n tentative</numerusform>
            <numerusform>mort après %n tentatives</numerusform>
        </translation>
    </message>
    <message>
        <source>due in %1</source>
        <translation>prévu dans %1</translation>
    </message>
    <message>
        <source>due %1 ago, not yet promoted</source>
        <translation>prévu il y a %1, pas encore promu</translation>
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
        <translation>%1 j %2 h</translation>
    </message>
</context>
<context>
    <name>Inspector::RecipesPage</name>
    <message>
        <source>Select a recipe to see who holds it and what it would take to end that.</source>
        <translation>Sélectionnez une recette pour voir qui la détient et ce qu&apos;il faudrait pour y mettre fin.</translation>
    </message>
</context>
<context>
    <name>Inspector::Sandbox</name>
    <message>
        <source>Could not create a temporary directory for the sandbox: %1</source>
        <translation>Impossible de créer un répertoire temporaire pour le bac à sable&#xa0;: %1</translation>
    </message>
    <message>
        <source>No free port on 127.0.0.1 for etcd.</source>
        <translation>Aucun port libre sur 127.0.0.1 pour etcd.</translation>
    </message>
    <message>
        <source>etcd (%1) could not be started: %2</source>
        <translation>etcd (%1) n&apos;a pas pu être démarré&#xa0;: %2</translation>
    </message>
    <message numerus="yes">
        <source>etcd was not ready within %n second(s). Its last output:
%1</source>
        <translation>
            <numerusform>etcd n&apos;était pas prêt au bout de %n seconde. Sa dernière sortie&#xa0;:
%1</numerusform>
            <numerusform>etcd n&apos;était pas prêt au bout de %n secondes. Sa dernière sortie&#xa0;:
%1</numerusform>
        </translation>
    </message>
    <message>
        <source>etcd exited unexpectedly (exit status %1); the sandbox has stopped. Its last output:
%2</source>
        <translation>etcd s&apos;est arrêté de façon inattendue (code de sortie %1)&#xa0;; le bac à sable est arrêté. Sa dernière sortie&#xa0;:
%2</translation>
    </message>
    <message>
        <source>etcd exited before it was ready (exit status %1). Its last output:
%2</source>
        <translation>etcd s&apos;est arrêté avant d&apos;être prêt (code de sortie %1). Sa dernière sortie&#xa0;:
%2</translation>
    </message>
    <message>
        <source>etcd: running (pid %1) at %2</source>
        <translation>etcd&#xa0;: en cours d&apos;exécution (pid %1) sur %2</translation>
    </message>
    <message>
        <source>etcd: not running</source>
        <translation>etcd&#xa0;: arrêté</translation>
    </message>
    <message>
        <source>ETCDQT_CLI is set to %1, which is not an executable file.</source>
        <translation>ETCDQT_CLI vaut %1, qui n&apos;est pas un fichier exécutable.</translation>
    </message>
    <message>
        <source>The etcdqt command-line tool was not found (looked for %1). Build the etcdqt target, or set ETCDQT_CLI to its path.</source>
        <translation>L&apos;outil en ligne de commande etcdqt est introuvable (cherché&#xa0;: %1). Compilez la cible etcdqt ou indiquez son chemin dans ETCDQT_CLI.</translation>
    </message>
    <message>
        <source>etcd was not found in PATH (%1). Install etcd (scripts/setup-deps does) to run the sandbox.</source>
        <translation>etcd est introuvable dans le PATH (%1). Installez etcd (scripts/setup-deps le fait) pour lancer le bac à sable.</translation>
    </message>
</context>
<context>
    <name>Inspector::TermsChart</name>
    <message>
        <source>now</source>
        <translation>maintenant</translation>
    </message>
    <message>
        <source>%1 led %2 from %3 until %4, term token %5</source>
        <translation>%1 a dirigé %2 de %3 à %4, jeton de mandat %5</translation>
    </message>
    <message>
        <source>No hand-off seen live yet. Hand-offs rebuilt from etcd&apos;s history have no time: the table lists them.</source>
        <translation>Aucune passation vue en direct pour l&apos;instant. Les passations reconstruites depuis l&apos;historique d&apos;etcd n&apos;ont pas d&apos;heure&#xa0;: le tableau les liste.</translation>
    </message>
</context>
<context>
    <name>Inspector::TimelineModel</name>
    <message>
        <source>nobody</source>
        <translation>personne</translation>
    </message>
    <message>
        <source>history</source>
        <translation>historique</translation>
    </message>
    <message>
        <source>live</source>
        <translation>en direct</translation>
    </message>
    <message>
        <source>%1 changed leader %2 or more times in 15 minutes</source>
        <translation>%1 a changé de leader %2 fois ou plus en 15 minutes</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Heure</translation>
    </message>
    <message>
        <source>Election</source>
        <translation>Élection</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Ancien leader</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Nouveau leader</translation>
    </message>
    <message>
        <source>Term token</source>
        <translation>Mandat</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Révision</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
</context>
<context>
    <name>Inspector::TimelinePage</name>
    <message>
        <source>Flapping: %1 (4 or more new leaders within 15 minutes)</source>
        <translation>Instable (oscillation)&#xa0;: %1 (4 nouveaux leaders ou plus en 15 minutes)</translation>
    </message>
    <message>
        <source>Show as ta&amp;ble</source>
        <translation>Afficher en tabl&amp;eau</translation>
    </message>
    <message>
        <source>The chart: Ctrl+wheel or +/- zooms, wheel, drag or arrows pan, Home fits every term, End follows the present.</source>
        <translation>Le graphique&#xa0;: Ctrl+molette ou +/- zoome, la molette, le glisser ou les flèches déplacent, Début montre tous les mandats, Fin suit le présent.</translation>
    </message>
</context>
<context>
    <name>Inspector::ViewDiff</name>
    <message>
        <source>%1 became a candidate in %2</source>
        <translation>%1 est devenu candidat dans %2</translation>
    </message>
    <message>
        <source>%1 left the election %2</source>
        <translation>%1 a quitté l&apos;élection %2</translation>
    </message>
    <message>
        <source>%1 became leader of %2, term token %3</source>
        <translation>%1 est devenu leader de %2, jeton de mandat %3</translation>
    </message>
    <message>
        <source>%1 no longer leads %2</source>
        <translation>%1 n&apos;est plus leader de %2</translation>
    </message>
    <message>
        <source>%1 released %2</source>
        <translation>%1 a libéré %2</translation>
    </message>
    <message>
        <source>%1 acquired %2, token %3</source>
        <translation>%1 a acquis %2, jeton %3</translation>
    </message>
    <message>
        <source>%1 is waiting for %2</source>
        <translation>%1 attend %2</translation>
    </message>
    <message>
        <source>%1 set barrier %2</source>
        <translation>%1 a posé la barrière %2</translation>
    </message>
    <message>
        <source>barrier %1 lifted</source>
        <translation>barrière %1 levée</translation>
    </message>
    <message>
        <source>%1 arrived at %2</source>
        <translation>%1 est arrivé à %2</translation>
    </message>
    <message>
        <source>%1 left %2</source>
        <translation>%1 a quitté %2</translation>
    </message>
    <message>
        <source>%1 tripped: every member arrived</source>
        <translation>%1&#xa0;: barrière ouverte, tous les membres sont arrivés</translation>
    </message>
    <message>
        <source>%1 was deleted</source>
        <translation>%1 a été supprimé</translation>
    </message>
    <message>
        <source>%1 is now %2</source>
        <translation>%1 vaut maintenant %2</translation>
    </message>
    <message>
        <source>%1 appeared</source>
        <translation>%1 est apparu</translation>
    </message>
    <message>
        <source>%1 vanished</source>
        <translation>%1 a disparu</translation>
    </message>
    <message>
        <source>lease %1</source>
        <translation>bail %1</translation>
    </message>
    <message>
        <source>%1 registered with service %2</source>
        <translation>%1 s’est enregistré auprès du service %2</translation>
    </message>
    <message>
        <source>%1 of service %2 updated</source>
        <translation>%1 du service %2 mis à jour</translation>
    </message>
    <message>
        <source>%1 left service %2</source>
        <translation>%1 a quitté le service %2</translation>
    </message>
</context>
<context>
    <name>Inspector::WorkloadProcess</name>
    <message>
        <source>%1: running (pid %2, run %3)</source>
        <translation>%1&#xa0;: en cours d&apos;exécution (pid %2, lancement n°&#xa0;%3)</translation>
    </message>
    <message>
        <source>%1: stopped</source>
        <translation>%1&#xa0;: arrêté</translation>
    </message>
    <message>
        <source>%1: waiting for its next run (last exit status %2)</source>
        <translation>%1&#xa0;: attend son prochain lancement (dernier code de sortie %2)</translation>
    </message>
</context>
</TS>
