import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Checks a staging repository written by {@code mvn -Prelease deploy -DaltDeploymentRepository=local::file:DIR}
 * the way a public repository (Maven Central's validation) checks a release, without publishing anything:
 * every POM has name, description, url, licenses, developers and scm (its own or inherited from a staged
 * parent); every library has its jar, sources jar and javadoc jar, the jar's manifest carries the version and
 * the licence; the BOM manages exactly the libraries; nothing else (jmh, examples, the sinks) was deployed.
 * Run by .ci/check-release.sh: {@code java .ci/CheckRelease.java DIR}. Prints one line per problem and exits 1
 * if there is any.
 */
public final class CheckRelease {
    private static final String GROUP_PATH = "io/nearsort";
    private static final Set<String> LIBRARIES = Set.of("nearsort-core", "nearsort-ldi", "nearsort-labtree");
    private static final Set<String> POM_ONLY = Set.of("nearsort-parent", "nearsort-bom");
    private static final List<String> REQUIRED = List.of("name", "description", "url", "licenses/license/name",
            "licenses/license/url", "developers/developer/name", "scm/url", "scm/connection");

    private final Path repository;
    private final List<String> problems = new ArrayList<>();

    private CheckRelease(final Path repository) {
        this.repository = repository;
    }

    public static void main(final String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java .ci/CheckRelease.java STAGING_DIR");
            System.exit(2);
        }
        final CheckRelease check = new CheckRelease(Path.of(args[0]));
        final int artifacts = check.run();
        check.problems.forEach(p -> System.out.println("release check: " + p));
        if (!check.problems.isEmpty()) {
            System.exit(1);
        }
        System.out.println("release check: " + artifacts + " artifacts staged in " + args[0]
                + " have the metadata and jars a public repository requires");
    }

    private int run() throws Exception {
        final Path group = repository.resolve(GROUP_PATH);
        final Set<String> staged = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(group)) {
            dirs.filter(Files::isDirectory).forEach(d -> staged.add(d.getFileName().toString()));
        }
        final Set<String> expected = new TreeSet<>(LIBRARIES);
        expected.addAll(POM_ONLY);
        for (final String artifact : staged) {
            if (!expected.contains(artifact)) {
                problems.add(artifact + " was deployed; only " + expected + " may be (set maven.deploy.skip)");
            }
        }
        for (final String artifact : expected) {
            if (!staged.contains(artifact)) {
                problems.add(artifact + " is missing from " + group);
            }
        }
        final String version = onlyVersion("nearsort-parent");
        for (final String artifact : expected) {
            if (staged.contains(artifact)) {
                checkArtifact(artifact, version);
            }
        }
        return expected.size();
    }

    private String onlyVersion(final String artifact) throws IOException {
        try (Stream<Path> dirs = Files.list(repository.resolve(GROUP_PATH).resolve(artifact))) {
            final List<String> versions = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).toList();
            if (versions.size() != 1) {
                throw new IllegalStateException(artifact + ": expected one staged version, found " + versions
                        + " (clear the staging directory first)");
            }
            return versions.get(0);
        }
    }

    private void checkArtifact(final String artifact, final String version) throws Exception {
        final Path dir = repository.resolve(GROUP_PATH).resolve(artifact).resolve(version);
        if (!Files.isDirectory(dir)) {
            problems.add(artifact + ": no version " + version + " (the reactor's); its versions differ");
            return;
        }
        final Path pom = newest(dir, artifact, ".pom");
        if (pom == null) {
            problems.add(artifact + ": no POM in " + dir);
            return;
        }
        final Element project = parse(pom);
        for (final String path : REQUIRED) {
            if (inherited(project, path) == null) {
                problems.add(pom.getFileName() + ": no <" + path + "> (own or inherited from a staged parent)");
            }
        }
        final String url = inherited(project, "url");
        final String parentUrl = text(parse(newest(repository.resolve(GROUP_PATH).resolve("nearsort-parent")
                .resolve(version), "nearsort-parent", ".pom")), "url");
        if (url != null && !url.equals(parentUrl)) {
            problems.add(pom.getFileName() + ": url " + url + " differs from the project's " + parentUrl);
        }
        if (artifact.equals("nearsort-bom")) {
            checkBom(project, pom);
        }
        if (!LIBRARIES.contains(artifact)) {
            return;
        }
        final Path jar = newest(dir, artifact, ".jar");
        final Path sources = newest(dir, artifact, "-sources.jar");
        final Path javadoc = newest(dir, artifact, "-javadoc.jar");
        if (jar == null || sources == null || javadoc == null) {
            problems.add(artifact + ": jar " + jar + ", sources " + sources + ", javadoc " + javadoc
                    + " (all three are required)");
            return;
        }
        try (JarFile main = new JarFile(jar.toFile())) {
            final String implementationVersion = main.getManifest().getMainAttributes().getValue("Implementation-Version");
            if (!version.equals(implementationVersion)) {
                problems.add(jar.getFileName() + ": manifest Implementation-Version " + implementationVersion
                        + ", expected " + version);
            }
            for (final String entry : List.of("META-INF/LICENSE", "META-INF/NOTICE")) {
                if (main.getEntry(entry) == null) {
                    problems.add(jar.getFileName() + ": no " + entry);
                }
            }
        }
        requireEntry(sources, ".java");
        requireEntry(javadoc, "index.html");
    }

    private void checkBom(final Element project, final Path pom) {
        final Set<String> managed = new TreeSet<>();
        final Node management = child(project, "dependencyManagement");
        final Node dependencies = management == null ? null : child(management, "dependencies");
        if (dependencies != null) {
            for (Node d = dependencies.getFirstChild(); d != null; d = d.getNextSibling()) {
                if (d instanceof Element) {
                    managed.add(text((Element) d, "artifactId"));
                }
            }
        }
        if (!managed.equals(LIBRARIES)) {
            problems.add(pom.getFileName() + ": manages " + managed + ", expected " + new TreeSet<>(LIBRARIES));
        }
        if (child(project, "parent") != null) {
            problems.add(pom.getFileName() + ": a BOM with a parent imports the parent's dependencyManagement too");
        }
    }

    private void requireEntry(final Path jar, final String suffix) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            if (file.stream().noneMatch(e -> e.getName().endsWith(suffix))) {
                problems.add(jar.getFileName() + ": no *" + suffix + " entry");
            }
        }
    }

    /** The value at {@code path} in the POM or, failing that, in its parent's, looked up in the staging repository. */
    private String inherited(final Element project, final String path) throws Exception {
        final String own = text(project, path);
        if (own != null) {
            return own;
        }
        final Node parent = child(project, "parent");
        if (parent == null) {
            return null;
        }
        final Element p = (Element) parent;
        final Path dir = repository.resolve(text(p, "groupId").replace('.', '/')).resolve(text(p, "artifactId"))
                .resolve(text(p, "version"));
        final Path parentPom = Files.isDirectory(dir) ? newest(dir, text(p, "artifactId"), ".pom") : null;
        return parentPom == null ? null : inherited(parse(parentPom), path);
    }

    /** The file {@code artifact-<version or snapshot timestamp><suffix>} sorting last, or null. */
    private static Path newest(final Path dir, final String artifact, final String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> {
                final String name = f.getFileName().toString();
                return name.startsWith(artifact + "-") && name.endsWith(suffix)
                        && (suffix.startsWith("-") || !name.matches(".*-(sources|javadoc|tests)\\.jar"));
            }).sorted().reduce((a, b) -> b).orElse(null);
        }
    }

    private static Element parse(final Path pom) throws Exception {
        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        final Document document = factory.newDocumentBuilder().parse(new File(pom.toString()));
        return document.getDocumentElement();
    }

    private static Node child(final Node node, final String name) {
        for (Node c = node.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element && c.getNodeName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** The trimmed, non-empty text at a slash-separated path of first children, or null. */
    private static String text(final Element root, final String path) {
        Node node = root;
        for (final String name : path.split("/")) {
            node = child(node, name);
            if (node == null) {
                return null;
            }
        }
        final String text = node.getTextContent().strip();
        return text.isEmpty() ? null : text;
    }
}
