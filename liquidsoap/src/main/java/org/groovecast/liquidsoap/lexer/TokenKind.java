package org.groovecast.liquidsoap.lexer;

/**
 * The tokens of Liquidsoap 2.4 (its parser.mly), and those the lexer makes before the {@link
 * Preprocessor} turns them into the parser's ({@link #PP_ENDL}).
 */
public enum TokenKind {
    VAR("a name"),
    /** A name right before {@code (} on the same line: a call, or a function definition. */
    VARLPAR("a call"),
    /** A name right before {@code [} on the same line: {@code l[key]}. */
    VARLBRA("an index"),
    VERSION("a version"),
    STRING("a string"),
    RAW_STRING("a raw string"),
    REGEXP("a regular expression"),
    INT("an integer"),
    FLOAT("a float"),
    NULL("`null`"),
    BOOL("a boolean"),
    TIME("a time"),
    INTERVAL("a time interval"),
    ENCODER("an encoder"),
    EOF("the end of the file"),
    /** {@code let}, with its decoration ({@code let replaces}...) in the token's extra. */
    LET("`let`"),
    /** {@code let json.parse[}: options follow. */
    LETLBRA("`let json.parse[`"),
    DEF("`def`"),
    BEGIN("`begin`"),
    END("`end`"),
    GETS("`=`"),
    TILD("`~`"),
    QUESTION("`?`"),
    QUESTION_DOT("`?.`"),
    COALESCE("`??`"),
    TRY("`try`"),
    CATCH("`catch`"),
    FINALLY("`finally`"),
    DO("`do`"),
    IF("`if`"),
    THEN("`then`"),
    ELSE("`else`"),
    ELSIF("`elsif`"),
    OPEN("`open`"),
    LPAR("`(`"),
    RPAR("`)`"),
    COMMA("`,`"),
    SEQ("`;`"),
    SEQSEQ("`;;`"),
    COLON("`:`"),
    COLONCOLON("`::`"),
    DOT("`.`"),
    LBRA("`[`"),
    RBRA("`]`"),
    LCUR("`{`"),
    RCUR("`}`"),
    FUN("`fun`"),
    YIELDS("`->`"),
    DOTDOTDOT("`...`"),
    AND("`and`"),
    OR("`or`"),
    /** {@code == != < <= > >=} */
    BIN1("an operator"),
    /** {@code + % ^ +. -.} */
    BIN2("an operator"),
    /** {@code / *. /. mod} */
    BIN3("an operator"),
    AT("`@`"),
    TIMES("`*`"),
    /** Binary minus: after a number, a name, {@code )} or {@code }} on the same line. */
    MINUS("`-`"),
    /** Any other minus. */
    UMINUS("`-`"),
    UNDERSCORE("`_`"),
    NOT("`not`"),
    GET("`!`"),
    SET("`:=`"),
    PP_IFDEF("`%ifdef`"),
    PP_IFVERSION("`%ifversion`"),
    PP_IFENCODER("`%ifencoder`"),
    PP_ELSE("`%else`"),
    PP_ENDIF("`%endif`"),
    ARGS_OF("`%argsof`"),
    INCLUDE("`%include`"),
    BEGIN_INTERPOLATION("a string"),
    END_INTERPOLATION("the end of the string"),
    INTERPOLATED_STRING("a string"),
    WHILE("`while`"),
    FOR("`for`"),
    TO("`to`"),
    /** A line break; the preprocessor drops them once read. */
    PP_ENDL("a line break");

    private final String description;

    TokenKind(String description) {
        this.description = description;
    }

    /** How a message names a token of this kind. */
    public String description() {
        return description;
    }
}
