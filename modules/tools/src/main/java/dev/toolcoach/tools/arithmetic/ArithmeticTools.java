package dev.toolcoach.tools.arithmetic;

import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolSuite;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * ToolBrain's hello-world suite: the four operations on exact decimals, so 0.1 + 0.2 is 0.3 and a
 * reward can compare answers as numbers without float noise.
 */
public final class ArithmeticTools {

    public static final String SUITE = "arithmetic";

    /** 34 significant digits (IEEE decimal128) for quotients that do not terminate, such as 1/3. */
    private static final MathContext NON_TERMINATING = MathContext.DECIMAL128;

    public static ToolSuite suite() {
        return ToolSuite.builder(SUITE).addAnnotated(new ArithmeticTools()).build();
    }

    @ToolMethod(description = "Add two numbers exactly.")
    public BigDecimal add(@Param("first addend") BigDecimal a, @Param("second addend") BigDecimal b) {
        return normalised(a.add(b));
    }

    @ToolMethod(description = "Subtract b from a exactly.")
    public BigDecimal subtract(@Param("minuend") BigDecimal a, @Param("subtrahend, taken from a") BigDecimal b) {
        return normalised(a.subtract(b));
    }

    @ToolMethod(description = "Multiply two numbers exactly.")
    public BigDecimal multiply(@Param("first factor") BigDecimal a, @Param("second factor") BigDecimal b) {
        return normalised(a.multiply(b));
    }

    @ToolMethod(description = "Divide a by b; exact when the quotient terminates, else rounded to 34 significant digits.")
    public BigDecimal divide(@Param("dividend") BigDecimal a, @Param("divisor, not zero") BigDecimal b) throws ToolException {
        if (b.signum() == 0) throw new ToolException("division by zero: the divisor b must not be 0");
        try {
            return normalised(a.divide(b));
        } catch (ArithmeticException nonTerminating) {
            return normalised(a.divide(b, NON_TERMINATING));
        }
    }

    /** 2.50 and 2.5 are the same answer; integers stay integers (100, not 1E+2). */
    private static BigDecimal normalised(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
