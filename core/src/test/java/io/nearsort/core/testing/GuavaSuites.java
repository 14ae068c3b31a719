package io.nearsort.core.testing;

import junit.framework.TestCase;
import junit.framework.TestSuite;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * Runs a Guava testlib (JUnit 3 style) suite as Jupiter dynamic tests, which is much faster than the vintage
 * engine. {@code afterEach} runs after every test case, pass or fail (to close what the generator created).
 */
public final class GuavaSuites {
    private GuavaSuites() {
    }

    public static DynamicNode toDynamic(final junit.framework.Test test, final Runnable afterEach) {
        if (test instanceof TestSuite) {
            final TestSuite suite = (TestSuite) test;
            final List<DynamicNode> children = new ArrayList<>();
            for (final Enumeration<junit.framework.Test> e = suite.tests(); e.hasMoreElements(); ) {
                children.add(toDynamic(e.nextElement(), afterEach));
            }
            return DynamicContainer.dynamicContainer(suite.getName(), children);
        }
        final TestCase testCase = (TestCase) test;
        return DynamicTest.dynamicTest(testCase.getName(), () -> {
            try {
                testCase.runBare();
            } finally {
                afterEach.run();
            }
        });
    }
}
