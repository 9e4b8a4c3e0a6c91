package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.SimpleTask;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.trace.ToolCall;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * The ToolBrain paper's finance questions over the {@code finance} suite: compound interest, loan
 * payments, CAGR and NPV, each in several phrasings with sampled numbers; one kind needs two calls
 * (grow an investment, then take its CAGR). Gold answers come from the suite's own methods, so they
 * are exactly what the tools return. Money answers are in dollars and rates in percent, both to two
 * decimals, so one tolerance of 0.01 fits all. The oracle states each rate as the decimal its call writes just before
 * the call, and writes whole cash flows as the question does (1500, not 1500.0), which keeps its longest reply
 * within a scratch model's 64 new tokens.
 */
public final class FinanceTask {

    public static final String NAME = "finance";

    private static final FinanceTools TOOLS = new FinanceTools();
    private static final Map<Integer, String> COMPOUNDING = Map.of(1, "annually", 4, "quarterly", 12, "monthly");

    private FinanceTask() {
    }

    /** {@code count} questions drawn with {@code seed}; the same arguments always give the same task. */
    public static Task create(int count, long seed) {
        Random random = new Random(seed);
        List<TaskExample> examples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = NAME + "_" + i;
            try {
                examples.add(switch (random.nextInt(5)) {
                    case 0 -> compoundInterest(id, random);
                    case 1 -> loanPayment(id, random);
                    case 2 -> cagr(id, random);
                    case 3 -> npv(id, random);
                    default -> growthThenCagr(id, random);
                });
            } catch (ToolException e) {
                throw new IllegalStateException("generated invalid finance inputs for " + id + ": " + e.getMessage(), e);
            }
        }
        return new SimpleTask(NAME, List.of(FinanceTools.SUITE), examples, AnswerReward.numeric(0.01));
    }

    private static TaskExample compoundInterest(String id, Random random) throws ToolException {
        int principal = 500 * (2 + random.nextInt(99));
        double rate = rate(random);
        int years = 1 + random.nextInt(30);
        int n = List.of(1, 4, 12).get(random.nextInt(3));
        String q = pick(random,
                "If I invest $%s at %s%% a year compounded %s, how much will I have after %d years?",
                "What is the future value of $%s at an annual rate of %s%%, compounded %s, over %d years?",
                "A deposit of $%s earns %s%% per year, compounded %s. What is it worth after %d years?")
                .formatted(principal, percent(rate), COMPOUNDING.get(n), years);
        BigDecimal value = TOOLS.compoundInterest(principal, rate, years, n).futureValue();
        return TaskExample.question(id, q, money(value), List.of(
                OracleStep.call("Compound interest with n=" + n + "; " + asDecimal(rate), compoundCall(principal, rate, years, n)),
                OracleStep.answer("The future value is " + money(value) + ".", "$" + money(value))), Map.of());
    }

    private static TaskExample loanPayment(String id, Random random) throws ToolException {
        int principal = 1000 * (5 + random.nextInt(496));
        double rate = rate(random);
        int years = List.of(5, 10, 15, 20, 25, 30).get(random.nextInt(6));
        String q = pick(random,
                "What is the monthly payment on a $%s loan at %s%% annual interest over %d years?",
                "I borrow $%s for %3$d years at %2$s%% a year. How much do I pay each month?",
                "Compute the monthly installment of a %3$d-year loan of $%1$s with an annual rate of %2$s%%.")
                .formatted(principal, percent(rate), years);
        BigDecimal payment = TOOLS.loanPayment(principal, rate, years, 12).payment();
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("principal", principal);
        args.put("annual_rate", rate);
        args.put("years", years);
        args.put("payments_per_year", 12);
        return TaskExample.question(id, q, money(payment), List.of(
                OracleStep.call("An annuity loan paid monthly; " + asDecimal(rate), new ToolCall("loan_payment", args)),
                OracleStep.answer("The payment is " + money(payment) + " a month.", "$" + money(payment))), Map.of());
    }

    private static TaskExample cagr(String id, Random random) throws ToolException {
        int start = 1000 * (1 + random.nextInt(200));
        int end = (int) Math.round(start * (0.5 + 2.5 * random.nextDouble()));
        int years = 2 + random.nextInt(14);
        String q = pick(random,
                "A portfolio grew from $%s to $%s in %d years. What was its compound annual growth rate, in percent?",
                "Revenue went from %s to %s over %d years. What is the CAGR in percent?",
                "What CAGR (in percent) takes a value of %s to %s in %d years?")
                .formatted(start, end, years);
        BigDecimal rate = TOOLS.cagr(start, end, years);
        return TaskExample.question(id, q, percent(rate), List.of(
                OracleStep.call("CAGR from start, end and years.", cagrCall(start, end, years)),
                OracleStep.answer("The tool gives " + rate.toPlainString() + " as a decimal.", percent(rate) + "%")), Map.of());
    }

    private static TaskExample npv(String id, Random random) throws ToolException {
        int outlay = 1000 * (5 + random.nextInt(46));
        List<Double> flows = new ArrayList<>();
        flows.add((double) -outlay);
        int periods = 3 + random.nextInt(3);
        for (int t = 0; t < periods; t++) flows.add((double) (500 * (1 + random.nextInt(2 * outlay / 500 / periods + 1))));
        double rate = rate(random);
        String inflows = flows.subList(1, flows.size()).stream().map(f -> "$" + Math.round(f)).collect(Collectors.joining(", "));
        String q = pick(random,
                "A project costs $%s today and returns %s at the end of each following year. At a %s%% discount rate, what is its NPV?",
                "What is the net present value of paying $%s now and receiving %s over the next years, discounted at %s%%?",
                "An investment of $%s now yields yearly cash flows of %s. Compute the NPV at %s%%.")
                .formatted(outlay, inflows, percent(rate));
        BigDecimal value = TOOLS.npv(rate, flows);
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("rate", rate);
        args.put("cash_flows", flows.stream().map(Math::round).toList());
        return TaskExample.question(id, q, money(value), List.of(
                OracleStep.call(asDecimal(rate), new ToolCall("npv", args)),
                OracleStep.answer("The NPV is " + money(value) + ".", "$" + money(value))), Map.of());
    }

    /** Two calls: the future value of an investment, then the CAGR from principal to that value. */
    private static TaskExample growthThenCagr(String id, Random random) throws ToolException {
        int principal = 500 * (2 + random.nextInt(99));
        double rate = rate(random);
        int years = 2 + random.nextInt(20);
        int n = List.of(4, 12).get(random.nextInt(2));
        String q = pick(random,
                "I put $%s in an account paying %s%% a year compounded %s for %d years. What effective annual growth rate (CAGR, in percent) is that?",
                "$%s grows at %s%% compounded %s for %d years. Find the future value, then the equivalent CAGR in percent.")
                .formatted(principal, percent(rate), COMPOUNDING.get(n), years);
        BigDecimal value = TOOLS.compoundInterest(principal, rate, years, n).futureValue();
        BigDecimal growth = TOOLS.cagr(principal, value.doubleValue(), years);
        return TaskExample.question(id, q, percent(growth), List.of(
                OracleStep.call("First the future value; " + asDecimal(rate), compoundCall(principal, rate, years, n)),
                OracleStep.call("It grows to " + money(value) + "; now the CAGR.", cagrCall(principal, value.doubleValue(), years)),
                OracleStep.answer("The tool gives " + growth.toPlainString() + " as a decimal.", percent(growth) + "%")), Map.of());
    }

    private static ToolCall compoundCall(int principal, double rate, int years, int n) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("principal", principal);
        args.put("annual_rate", rate);
        args.put("years", years);
        args.put("compounds_per_year", n);
        return new ToolCall("compound_interest", args);
    }

    private static ToolCall cagrCall(double start, double end, int years) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("start_value", start);
        args.put("end_value", end);
        args.put("years", years);
        return new ToolCall("cagr", args);
    }

    /** An annual rate from 1% to 12% in steps of 0.25%, as a decimal (0.0525). */
    private static double rate(Random random) {
        return BigDecimal.valueOf(100 + 25 * random.nextInt(45), 4).doubleValue();
    }

    /** "5.25% is 0.0525.": the call copies the rate from right beside its percent, not from across the question. */
    private static String asDecimal(double rate) {
        return percent(rate) + "% is " + BigDecimal.valueOf(rate).toPlainString() + ".";
    }

    private static String percent(double rate) {
        return BigDecimal.valueOf(rate).movePointRight(2).stripTrailingZeros().toPlainString();
    }

    private static String percent(BigDecimal rate) {
        return rate.movePointRight(2).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String money(BigDecimal amount) {
        return amount.setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String pick(Random random, String... phrasings) {
        return phrasings[random.nextInt(phrasings.length)];
    }
}
